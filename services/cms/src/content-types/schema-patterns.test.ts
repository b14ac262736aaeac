import { patternsOf } from './schema-patterns';

describe('patternsOf', () => {
  it('when a schema has pattern and patternProperties at any depth, then each comes with its path', () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]+$' },
        tags: { type: 'array', items: [{ type: 'string', pattern: '^#' }] },
      },
      patternProperties: { '^x-': { type: 'string' } },
      allOf: [{ propertyNames: { pattern: '^[a-z]' } }],
    };
    expect(patternsOf(schema)).toEqual([
      { pattern: '^x-', path: 'schema.patternProperties.^x-' },
      { pattern: '^[A-Z]+$', path: 'schema.properties.code.pattern' },
      { pattern: '^#', path: 'schema.properties.tags.items.0.pattern' },
      { pattern: '^[a-z]', path: 'schema.allOf.0.propertyNames.pattern' },
    ]);
  });

  it('when a pattern appears in several places, then it is listed once, at its first place', () => {
    const schema = { definitions: { a: { pattern: '^a$' }, b: { pattern: '^a$' } } };
    expect(patternsOf(schema)).toEqual([{ pattern: '^a$', path: 'schema.definitions.a.pattern' }]);
  });

  it('when a pattern sits in data ($ref can make ajv compile it), then it is listed too', () => {
    const schema = {
      enum: [{ pattern: '^e$' }],
      default: { patternProperties: { '^d$': {} } },
      'x-note': { pattern: '^n$' },
    };
    expect(patternsOf(schema).map((p) => p.pattern)).toEqual(['^e$', '^d$', '^n$']);
  });

  it('when "pattern" is a property name or not a string, then it is not taken for a regex', () => {
    const schema = { properties: { pattern: { type: 'string' } }, pattern: { $data: '1/re' } };
    expect(patternsOf(schema)).toEqual([]);
  });

  it('when a patternProperties name is long, then its path segment is shortened', () => {
    const name = `^${'a'.repeat(100)}$`;
    expect(patternsOf({ patternProperties: { [name]: {} } })).toEqual([
      { pattern: name, path: `schema.patternProperties.${name.slice(0, 60)}...` },
    ]);
  });

  it('when the document nests deeper than the call stack could, then it is still walked and the path is shortened', () => {
    let deep: Record<string, unknown> = { pattern: '^deep$' };
    for (let i = 0; i < 100_000; i++) deep = { not: deep };
    expect(patternsOf(deep)).toEqual([
      { pattern: '^deep$', path: `schema.not.not.not.not....${'.not'.repeat(10)}.pattern` },
    ]);
  });
});
