import { MAX_JSON_DEPTH } from '@platform/tenancy';
import type { TestProject, TestService } from '@platform/testkit';
import { insertContentType } from '../src/content-types/content-types.repository';
import { startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let api: Client;
let project: TestProject;

beforeAll(async () => {
  ({ svc, api, project } = await startCms());
});

afterAll(async () => {
  await svc.close();
});

const S2019 = 'https://json-schema.org/draft/2019-09/schema';
const S2020 = 'https://json-schema.org/draft/2020-12/schema';
let names = 0;
const uniqueName = (prefix: string) => `${prefix}-${++names}`;

/** `{"a":{"a":...1}}` as JSON text, `depth` objects deep (built as text: no recursion here either). */
const nestedText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const createType = (name: string, schema: unknown) => api.post('/v1/content-types', { body: { name, schema } });
const createCustom = (contentType: string, content: string) =>
  api.post('/v1/content', { body: { type: 'custom', contentType, title: 'T', content } });

describe('inherited property names in a tenant schema', () => {
  it.each(['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__'])(
    "when a type requires '%s', then {} is refused and a document that has it as its own property is accepted",
    async (property) => {
      const name = uniqueName('inherited');
      expect((await createType(name, { type: 'object', required: [property] })).status).toBe(201);
      const refused = await createCustom(name, '{}');
      expect(refused.status).toBe(400);
      expect(refused.body.error.details).toEqual([
        { path: 'content', message: `must have required property '${property}'` },
      ]);
      expect((await createCustom(name, JSON.stringify(JSON.parse(`{"${property}": 1}`)))).status).toBe(201);
    },
  );

  it('when dependentRequired names an inherited property, then only an own one satisfies it', async () => {
    const name = uniqueName('dependent');
    const schema = { $schema: S2020, type: 'object', dependentRequired: { a: ['constructor'] } };
    expect((await createType(name, schema)).status).toBe(201);
    expect((await createCustom(name, '{"a": 1}')).status).toBe(400);
    expect((await createCustom(name, '{"a": 1, "constructor": 2}')).status).toBe(201);
  });
});

describe('schemas the validator cannot run', () => {
  it.each([
    ['$recursiveRef (2019-09)', { $schema: S2019, $recursiveAnchor: true, $recursiveRef: '#' }],
    [
      '$recursiveRef in a tree (2019-09)',
      { $schema: S2019, $recursiveAnchor: true, type: 'object', properties: { c: { $recursiveRef: '#' } } },
    ],
    ['$dynamicRef (2020-12)', { $schema: S2020, $dynamicAnchor: 'node', $dynamicRef: '#node' }],
    ['$dynamicRef to an inherited name (2020-12)', { $schema: S2020, properties: { c: { $dynamicRef: '#toString' } } }],
  ])('when a type uses %s, then 400 at creation names the keyword and no type is stored', async (_what, schema) => {
    const name = uniqueName('dynamic');
    const res = await createType(name, schema);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].message).toMatch(/\$(recursive|dynamic)(Ref|Anchor) is not supported/);
    expect((await createCustom(name, '{}')).status).toBe(400);
  });

  it('when a type stored before this check uses a self-referring $dynamicRef, then its content gets 400, not a 500', async () => {
    const name = uniqueName('stored');
    const schema = { $schema: S2020, $dynamicAnchor: 'node', $dynamicRef: '#node' };
    await insertContentType(svc.deps.db, project, { name, description: null, schema });
    const res = await createCustom(name, '{}');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when a property is named like a dynamic keyword, then the schema is accepted', async () => {
    const name = uniqueName('named');
    const schema = { type: 'object', properties: { $dynamicRef: { type: 'string' } }, required: ['$dynamicRef'] };
    expect((await createType(name, schema)).status).toBe(201);
    expect((await createCustom(name, '{"$dynamicRef": "x"}')).status).toBe(201);
  });

  it('when a type recurses through $ref, then content far deeper than the limit is 400 on content, not a 500', async () => {
    const name = uniqueName('tree');
    const schema = { $ref: '#/definitions/n', definitions: { n: { properties: { a: { $ref: '#/definitions/n' } } } } };
    expect((await createType(name, schema)).status).toBe(201);
    expect((await createCustom(name, nestedText(MAX_JSON_DEPTH))).status).toBe(201);
    for (const depth of [MAX_JSON_DEPTH + 1, 50_000]) {
      const res = await createCustom(name, nestedText(depth));
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: 'content.a.a.a', message: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` },
      ]);
    }
  });
});

describe('depth of stored JSON', () => {
  const post = (path: string, text: string) =>
    api.post(path, { body: text, headers: { 'content-type': 'application/json' } });

  it.each([
    [
      'content-type schema',
      '/v1/content-types',
      (deep: string) => `{"name":"${uniqueName('deep')}","schema":${deep}}`,
      'schema',
    ],
    [
      'content metadata',
      '/v1/content',
      (deep: string) => `{"type":"blog","title":"t","content":"c","metadata":${deep}}`,
      'metadata',
    ],
  ])('when the %s nests deeper than the limit, then 400 names the field', async (_what, path, body, field) => {
    for (const depth of [MAX_JSON_DEPTH, 4_000]) {
      const res = await post(path, body(nestedText(depth)));
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { path: field, message: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` },
      ]);
    }
    expect((await post(path, body(nestedText(MAX_JSON_DEPTH - 1)))).status).toBe(201);
  });
});
