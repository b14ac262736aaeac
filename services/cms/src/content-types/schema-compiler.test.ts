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
