import { randomUUID } from 'node:crypto';
import type { TestService } from '@platform/testkit';
import { startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let api: Client;
let freshClient: () => Promise<Client>;

const recipeSchema = {
  type: 'object',
  required: ['ingredients', 'minutes'],
  properties: {
    ingredients: { type: 'array', items: { type: 'string' }, minItems: 1 },
    minutes: { type: 'integer', minimum: 1 },
    source: { type: 'string', format: 'uri' },
  },
  additionalProperties: false,
};

const goodRecipe = JSON.stringify({ ingredients: ['eggs', 'sugar'], minutes: 20 });

beforeAll(async () => {
  ({ svc, api, freshClient } = await startCms());
  expect(
    (await api.post('/v1/content-types', { body: { name: 'recipe', description: 'A recipe', schema: recipeSchema } }))
      .status,
  ).toBe(201);
});

afterAll(async () => {
  await svc.close();
});

/** Creates an item of a custom type. */
const createCustom = (client: Client, contentType: string, title: string, content: string) =>
  client.post('/v1/content', { body: { type: 'custom', contentType, title, content } });

const paths = (res: { body: { error: { details: { path: string }[] } } }) =>
  res.body.error.details.map((d) => d.path).sort();

describe('POST and GET /v1/content-types', () => {
  it('when a valid schema is sent, then 201 with the type and its schema, and it is listed without the schema', async () => {
    const client = await freshClient();
    const res = await client.post('/v1/content-types', { body: { name: 'event', schema: { type: 'object' } } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'event',
      description: null,
      schema: { type: 'object' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = await client.get('/v1/content-types');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      contentTypes: [
        {
          id: res.body.id,
          name: 'event',
          description: null,
          createdAt: res.body.createdAt,
          updatedAt: res.body.updatedAt,
        },
      ],
    });
    expect((await client.get(`/v1/content-types/${res.body.id}`)).body).toEqual(res.body);
  });

  it.each([
    ['an unknown type keyword value', { type: 'objekt' }],
    ['a non-array required', { type: 'object', required: 'name' }],
    ['a negative minLength', { type: 'string', minLength: -1 }],
    ['a dangling $ref', { $ref: '#/definitions/missing' }],
    [
      'a 2020-12 schema with a bad keyword',
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', minProperties: 'x' },
    ],
  ])('when the schema has %s, then 400 VALIDATION_ERROR on schema', async (_label, schema) => {
    const res = await api.post('/v1/content-types', { body: { name: `bad-${randomUUID()}`, schema } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(paths(res)).toEqual(['schema']);
  });

  it('when the schema declares draft 2020-12, then its keywords (prefixItems) are enforced', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { tags: { type: 'array', prefixItems: [{ type: 'string' }] } },
    };
    expect((await api.post('/v1/content-types', { body: { name: 'modern', schema } })).status).toBe(201);
    const bad = await createCustom(api, 'modern', 'T', '{"tags": [1]}');
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(['content.tags.0']);
    const good = await createCustom(api, 'modern', 'T', '{"tags": ["a", 1]}');
    expect(good.status).toBe(201);
  });

  it('when the schema is asynchronous ($async), then 400', async () => {
    const res = await api.post('/v1/content-types', {
      body: { name: 'async', schema: { $async: true, type: 'object' } },
    });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['schema']);
  });

  it.each([
    [{ schema: { type: 'object' } }, 'name'],
    [{ name: 'x' }, 'schema'],
    [{ name: 'x', schema: 'string' }, 'schema'],
    [{ name: 'x', schema: [1] }, 'schema'],
  ])('when the body is %j, then 400 naming %s', async (body, field) => {
    const res = await api.post('/v1/content-types', { body: body });
    expect(res.status).toBe(400);
    expect(paths(res)).toContain(field);
  });

  it('when the name is already used in the project, then 409 CONFLICT', async () => {
    const res = await api.post('/v1/content-types', { body: { name: 'recipe', schema: { type: 'object' } } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('when the name is used by another project, then it is free here', async () => {
    expect(
      (await (await freshClient()).post('/v1/content-types', { body: { name: 'recipe', schema: { type: 'object' } } }))
        .status,
    ).toBe(201);
  });

  it('when two projects share a schema $id, then both compile', async () => {
    const schema = { $id: 'https://example.com/shared.json', type: 'object' };
    expect((await (await freshClient()).post('/v1/content-types', { body: { name: 'shared', schema } })).status).toBe(
      201,
    );
    expect((await (await freshClient()).post('/v1/content-types', { body: { name: 'shared', schema } })).status).toBe(
      201,
    );
  });
});

describe('custom content validated by its type', () => {
  it('when the content matches the schema, then 201 and contentType is returned', async () => {
    const res = await createCustom(api, 'recipe', 'Cake', goodRecipe);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'custom', contentType: 'recipe', content: goodRecipe, slug: 'cake' });
  });

  it('when the content breaks several rules, then 400 lists every schema error in details', async () => {
    const content = JSON.stringify({ ingredients: [], minutes: 0, source: 'not a uri', extra: true });
    const res = await createCustom(api, 'recipe', 'Bad', content);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(paths(res)).toEqual(['content', 'content.ingredients', 'content.minutes', 'content.source']);
    expect(res.body.error.details.find((d: { path: string }) => d.path === 'content').message).toMatch(
      /additional properties \(extra\)/,
    );
  });

  it('when a required property is missing, then 400 says which', async () => {
    const res = await createCustom(api, 'recipe', 'Bad', '{"minutes": 5}');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'content', message: "must have required property 'ingredients'" }]);
  });

  it('when the content is not JSON, then 400 on content', async () => {
    const res = await createCustom(api, 'recipe', 'Bad', 'eggs, sugar');
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['content']);
  });

  it('when the content type does not exist in the project, then 400 on contentType', async () => {
    const res = await createCustom(api, 'nope', 'X', '{}');
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['contentType']);
  });

  it('when an update sends content that breaks the schema, then 400 and the item is unchanged', async () => {
    const item = (await createCustom(api, 'recipe', 'Pie', goodRecipe)).body;
    const res = await api.put(`/v1/content/${item.id}`, {
      body: {
        content: JSON.stringify({ ingredients: ['x'], minutes: 'ten' }),
      },
    });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['content.minutes']);
    expect((await api.put(`/v1/content/${item.id}`, { body: { content: '[' } })).status).toBe(400);
    expect((await api.get(`/v1/content/${item.id}`)).body.content).toBe(goodRecipe);
  });

  it('when an update sends valid content or other fields only, then 200', async () => {
    const item = (await createCustom(api, 'recipe', 'Tart', goodRecipe)).body;
    const content = JSON.stringify({ ingredients: ['apples'], minutes: 45 });
    expect((await api.put(`/v1/content/${item.id}`, { body: { content } })).body.content).toBe(content);
    expect((await api.put(`/v1/content/${item.id}`, { body: { status: 'published' } })).body).toMatchObject({
      status: 'published',
      content,
    });
  });

  it('when a type schema changes, then the cached validator is replaced and the new schema applies', async () => {
    const type = (
      await api.post('/v1/content-types', { body: { name: 'note', schema: { type: 'object', required: ['text'] } } })
    ).body;
    const first = await createCustom(api, 'note', 'N1', '{"text": "hi"}');
    expect(first.status).toBe(201);
    const changed = await api.put(`/v1/content-types/${type.id}`, {
      body: {
        description: 'Notes need a priority',
        schema: { type: 'object', required: ['text', 'priority'] },
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'note',
      description: 'Notes need a priority',
      schema: { required: ['text', 'priority'] },
    });
    const second = await createCustom(api, 'note', 'N2', '{"text": "hi"}');
    expect(second.status).toBe(400);
    expect(second.body.error.details).toEqual([{ path: 'content', message: "must have required property 'priority'" }]);
    const update = await api.put(`/v1/content/${first.body.id}`, { body: { content: '{"text": "again"}' } });
    expect(update.status).toBe(400);
  });

  it('when a type update sends an invalid schema, then 400 and the type keeps its schema', async () => {
    const type = (await api.post('/v1/content-types', { body: { name: 'kept', schema: { type: 'object' } } })).body;
    expect((await api.put(`/v1/content-types/${type.id}`, { body: { schema: { type: 'nothing' } } })).status).toBe(400);
    expect((await api.get(`/v1/content-types/${type.id}`)).body.schema).toEqual({ type: 'object' });
  });

  it.each(['not-a-uuid', randomUUID()])('when the type id is %s, then 404 on get and put', async (id) => {
    expect((await api.get(`/v1/content-types/${id}`)).status).toBe(404);
    expect((await api.put(`/v1/content-types/${id}`, { body: { description: 'x' } })).status).toBe(404);
  });
});

describe('isolation between projects', () => {
  it("when another project lists or reads types, then this project's types are not visible", async () => {
    const mine = (await api.get('/v1/content-types')).body.contentTypes as { id: string }[];
    expect(mine.length).toBeGreaterThan(0);
    const other = await freshClient();
    expect((await other.get('/v1/content-types')).body).toEqual({ contentTypes: [] });
    expect((await other.get(`/v1/content-types/${mine[0].id}`)).status).toBe(404);
    expect((await other.put(`/v1/content-types/${mine[0].id}`, { body: { schema: {} } })).status).toBe(404);
  });

  it("when another project creates custom content of this project's type name, then 400 unknown type", async () => {
    const other = await freshClient();
    const res = await createCustom(other, 'recipe', 'X', goodRecipe);
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['contentType']);
  });
});
