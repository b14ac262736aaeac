import { compileSchema, schemaErrorDetails, ValidatorCache } from './schema-compiler';

describe('ValidatorCache', () => {
  it('when the same type and schema are asked twice, then the compiled validator is reused', () => {
    const cache = new ValidatorCache();
    const schema = { type: 'object' };
    expect(cache.get('t1', schema)).toBe(cache.get('t1', { type: 'object' }));
  });

  it('when the schema of a type changed, then a new validator is compiled for it', () => {
    const cache = new ValidatorCache();
    const before = cache.get('t1', { type: 'object' });
    const after = cache.get('t1', { type: 'object', required: ['a'] });
    expect(after).not.toBe(before);
    expect(after({})).toBe(false);
    expect(cache.size).toBe(1);
  });

  it('when a type is forgotten, then the next get compiles again', () => {
    const cache = new ValidatorCache();
    const before = cache.get('t1', { type: 'object' });
    cache.forget('t1');
    expect(cache.get('t1', { type: 'object' })).not.toBe(before);
  });

  it('when more types than the limit are cached, then the least recently used is dropped', () => {
    const cache = new ValidatorCache(2);
    const a = cache.get('a', { type: 'object' });
    cache.get('b', { type: 'object' });
    cache.get('a', { type: 'object' });
    cache.get('c', { type: 'object' });
    expect(cache.size).toBe(2);
    expect(cache.get('a', { type: 'object' })).toBe(a);
  });
});

describe('compileSchema and schemaErrorDetails', () => {
  it('when a schema is invalid, then a 400 VALIDATION_ERROR on schema is thrown', () => {
    expect(() => compileSchema({ type: 12 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', status: 400 }),
    );
  });

  it('when formats are used, then ajv-formats checks them', () => {
    const validate = compileSchema({ type: 'string', format: 'email' });
    expect(validate('a@example.com')).toBe(true);
    expect(validate('nope')).toBe(false);
  });

  it('when a property name holds a slash, then the detail path shows it unescaped', () => {
    const validate = compileSchema({ type: 'object', properties: { 'a/b': { type: 'string' } } });
    validate({ 'a/b': 1 });
    expect(schemaErrorDetails(validate.errors)).toEqual([{ path: 'content.a/b', message: 'must be string' }]);
  });
});

describe('patterns in tenant schemas', () => {
  it('when a pattern backtracks catastrophically in JavaScript, then validating is still immediate (RE2)', () => {
    const validate = compileSchema({ type: 'string', pattern: '^(a+)+$' });
    const started = Date.now();
    expect(validate(`${'a'.repeat(40)}!`)).toBe(false);
    // 40 characters would take the backtracking engine days; RE2 answers in linear time.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(validate('aaaa')).toBe(true);
  });

  it('when patternProperties are used, then they match through the same engine', () => {
    const validate = compileSchema({ type: 'object', patternProperties: { '^x-': { type: 'number' } } });
    expect(validate({ 'x-a': 1 })).toBe(true);
    expect(validate({ 'x-a': 'no' })).toBe(false);
  });

  it('when a pattern uses lookaround, which RE2 cannot run, then the schema is refused with 400', () => {
    expect(() => compileSchema({ type: 'string', pattern: '^(?=a)a$' })).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});
