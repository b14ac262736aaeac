import { re2Engine } from './re2-engine';
import { compileSchema, InvalidSchemaError, schemaErrorDetails, ValidatorCache } from './schema-compiler';

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
    expect(() => compileSchema({ type: 12 })).toThrow(InvalidSchemaError);
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
  // Long enough that the backtracking engine would take seconds (2^n steps), short enough
  // that a regression fails in seconds instead of hanging.
  const evil = `${'a'.repeat(27)}!`;
  const immediately = <T>(run: () => T): T => {
    const started = Date.now();
    const result = run();
    expect(Date.now() - started).toBeLessThan(1_000);
    return result;
  };

  it('when one pattern is used in many places, then RE2 compiles it once (no more than the pattern check timed)', () => {
    const compile = jest.spyOn(re2Engine, 'compile');
    try {
      const code = { $ref: '#/definitions/code' };
      const validate = compileSchema({
        definitions: { code: { type: 'string', pattern: '^[a-z]+$' } },
        type: 'object',
        properties: { a: code, b: code, c: code },
        patternProperties: { '^x-': { type: 'string' } },
        additionalProperties: false,
      });
      expect(compile.mock.calls.map(([pattern]) => pattern).sort()).toEqual(['^[a-z]+$', '^x-']);
      expect(validate({ a: 'ok', 'x-n': 'y', c: 'A' })).toBe(false);
      expect(validate({ a: 'ok', 'x-n': 'y', c: 'b' })).toBe(true);
    } finally {
      compile.mockRestore();
    }
  });

  it('when a pattern backtracks catastrophically in JavaScript, then validating is still immediate (RE2)', () => {
    const validate = compileSchema({ type: 'string', pattern: '^(a+)+$' });
    expect(immediately(() => validate(evil))).toBe(false);
    expect(validate('aaaa')).toBe(true);
  });

  it('when patternProperties are used, then they match through the same engine', () => {
    const validate = compileSchema({ type: 'object', patternProperties: { '^x-': { type: 'number' } } });
    expect(validate({ 'x-a': 1 })).toBe(true);
    expect(validate({ 'x-a': 'no' })).toBe(false);
  });

  it('when a pattern uses lookaround, which RE2 cannot run, then the schema is refused with 400', () => {
    expect(() => compileSchema({ type: 'string', pattern: '^(?=a)a$' })).toThrow(InvalidSchemaError);
  });

  it.each([
    'http://json-schema.org/draft-07/schema#',
    'https://json-schema.org/draft/2019-09/schema',
    'https://json-schema.org/draft/2020-12/schema',
  ])(
    'when a %s schema has catastrophic patternProperties, propertyNames and additionalProperties, then keys are matched in linear time',
    ($schema) => {
      const validate = compileSchema({
        $schema,
        type: 'object',
        propertyNames: { pattern: '^(a+)+$' },
        patternProperties: { '^(a+)+$': { type: 'number' } },
        additionalProperties: false,
      });
      expect(immediately(() => validate({ [evil]: 1 }))).toBe(false);
      expect(validate({ aaa: 1 })).toBe(true);
    },
  );

  it('when a property name matches a catastrophic patternProperties pattern, then compiling is still immediate', () => {
    // ajv's strict mode tests each pattern against the `properties` names with `new RegExp`.
    const validate = immediately(() =>
      compileSchema({
        type: 'object',
        properties: { [evil]: {} },
        patternProperties: { '^(a+)+$': { type: 'number' } },
      }),
    );
    expect(validate({ [evil]: 'any' })).toBe(true);
  });

  it('when a pattern is taken from the document ($data), then the schema is refused with 400, since that regex would run on JavaScript', () => {
    expect(() =>
      compileSchema({
        type: 'object',
        properties: { re: { type: 'string' }, value: { type: 'string', pattern: { $data: '1/re' } } },
      }),
    ).toThrow(InvalidSchemaError);
  });

  it('when content is checked with format "regex", then a catastrophic pattern is only compiled, never run', () => {
    const validate = compileSchema({ type: 'string', format: 'regex' });
    expect(immediately(() => validate('^(a+)+$'))).toBe(true);
    expect(validate('(unclosed')).toBe(false);
  });
});
