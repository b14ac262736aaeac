import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Joi } from '@platform/tenancy';
import { KEYS } from '@platform/contract';
import { buildContractDocument, defineOperation, json, succeeded, toJsonSchema } from '../src';

type Schema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

describe('Joi to OpenAPI conversion', () => {
  it('when an object takes keys by schema and counts them, then the document says so (joi-to-json drops both)', () => {
    const metadata = Joi.object()
      .pattern(Joi.string().max(40), Joi.alternatives(Joi.string().max(500), Joi.number(), Joi.boolean()))
      .max(47);
    const out = toJsonSchema(Joi.object({ metadata }).min(1), {}, 'request') as Schema;
    expect(out.minProperties).toBe(1);
    expect(out.properties?.metadata).toEqual({
      type: 'object',
      maxProperties: 47,
      propertyNames: { type: 'string', maxLength: 40 },
      additionalProperties: { anyOf: [{ type: 'string', maxLength: 500 }, { type: 'number' }, { type: 'boolean' }] },
    });
  });

  it('when a request object is converted, then unknown keys are not forbidden (parse strips them)', () => {
    const schema = Joi.object({ a: Joi.string(), inner: Joi.object({ b: Joi.number() }) });
    expect(JSON.stringify(toJsonSchema(schema, {}, 'request'))).not.toContain('additionalProperties');
    expect(toJsonSchema(schema, {}, 'response').additionalProperties).toBe(false);
    expect(toJsonSchema(schema.unknown(), {}, 'response').additionalProperties).toBe(true);
  });

  it('when values are listed, nullable or constant, then they become enum, a null type and const', () => {
    const out = toJsonSchema(
      Joi.object({
        mode: Joi.string().valid('a', 'b').required(),
        url: Joi.string().allow(null).required(),
        ok: Joi.valid(true).required(),
      }),
      {},
      'response',
    ) as Schema;
    expect(out.properties).toEqual({
      mode: { type: 'string', enum: ['a', 'b'] },
      url: { type: ['string', 'null'] },
      ok: { const: true },
    });
    expect(out.required).toEqual(['mode', 'url', 'ok']);
  });

  it('when a schema is named with .id(), then it is a shared component referenced wherever it is used', () => {
    const components = {};
    const item = Joi.object({ id: Joi.string().required() }).id('Item');
    const out = toJsonSchema(Joi.object({ items: Joi.array().items(item), first: item }), components, 'response');
    expect(out.properties).toEqual({
      items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
      first: { $ref: '#/components/schemas/Item' },
    });
    expect(components).toEqual({
      Item: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    });
  });

  it('when alternatives allow null, then null is one more option (joi-to-json makes null the only type)', () => {
    const out = toJsonSchema(Joi.alternatives().try(Joi.string(), Joi.number()).allow(null), {}, 'request');
    expect(out).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] });
  });

  it('when a key depends on a sibling, then the base schema is documented, not one branch as if it always held', () => {
    const schema = Joi.object({
      kind: Joi.string().valid('a', 'b').required(),
      extra: Joi.string().max(9).when('kind', { is: 'a', then: Joi.any(), otherwise: Joi.forbidden() }),
    });
    expect((toJsonSchema(schema, {}, 'request') as Schema).properties?.extra).toEqual({ type: 'string', maxLength: 9 });
    const lone = Joi.object({
      kind: Joi.string(),
      extra: Joi.string().when('kind', { is: 'a', otherwise: Joi.forbidden() }),
    });
    expect(() => toJsonSchema(lone, {}, 'request')).toThrow(/both then and otherwise/);
  });

  it('when two different schemas share one name, then building fails instead of one silently winning', () => {
    const components = {};
    toJsonSchema(Joi.object({ a: Joi.string() }).id('Thing'), components, 'response');
    expect(() => toJsonSchema(Joi.object({ b: Joi.string() }).id('Thing'), components, 'response')).toThrow(/Thing/);
  });

  it('when alternatives choose by the value type, then the document lists the branches, null as one more', () => {
    const stop = Joi.alternatives()
      .conditional(Joi.string(), {
        then: Joi.string().max(10),
        otherwise: Joi.alternatives().conditional(Joi.array(), {
          then: Joi.array().items(Joi.string()).max(4),
          otherwise: Joi.forbidden(),
        }),
      })
      .allow(null);
    expect(toJsonSchema(Joi.object({ stop }), {}, 'request')).toEqual({
      type: 'object',
      properties: {
        stop: {
          anyOf: [
            { type: 'string', maxLength: 10 },
            { type: 'array', maxItems: 4, items: { type: 'string' } },
            { type: 'null' },
          ],
        },
      },
    });
  });

  it('when a field is allowed for one value of a sibling only, then the document gives its schema', () => {
    const body = Joi.object({
      role: Joi.string().valid('user', 'tool').required(),
      tool_call_id: Joi.when('role', { is: 'tool', then: Joi.string().max(9).required(), otherwise: Joi.forbidden() }),
    });
    expect(toJsonSchema(body, {}, 'request')).toEqual({
      type: 'object',
      properties: {
        role: { type: 'string', enum: ['user', 'tool'] },
        tool_call_id: { type: 'string', maxLength: 9 },
      },
      required: ['role'],
    });
  });

  it('when a field is required for one value of a sibling only, then the document gives its schema once, not a oneOf of two equal ones', () => {
    const body = Joi.object({
      type: Joi.string().valid('auto', 'tool').required(),
      name: Joi.when('type', { is: 'tool', then: Joi.string().max(9).required(), otherwise: Joi.string().max(9) }),
    });
    expect((toJsonSchema(body, {}, 'request') as Schema).properties?.name).toEqual({ type: 'string', maxLength: 9 });
  });

  it('when a request schema names parts with .id(), then they are written in place, so a field with a default stays optional for generators', () => {
    const kind = Joi.string().valid('info', 'alert').default('info').id('Kind');
    const body = Joi.object({ title: Joi.string().required(), kind, data: Joi.object().default({}) }).id('NoteInput');
    const components = {};
    expect(toJsonSchema(body, components, 'request')).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        kind: { type: 'string', enum: ['info', 'alert'], default: 'info' },
        data: { type: 'object', default: {} },
      },
      required: ['title'],
    });
    expect(components).toEqual({});
  });
});

describe('the document built from operations', () => {
  const body = Joi.object({ name: Joi.string().required() }).id('ThingInput');
  const doc = buildContractDocument({
    title: 'Things',
    description: 'test',
    operations: [
      defineOperation({
        method: 'post',
        path: '/things/{thing_id}',
        operationId: 'createThing',
        summary: 'Create',
        security: KEYS,
        request: {
          params: Joi.object({ thing_id: Joi.string().guid().description('Thing id') }),
          query: Joi.object({ limit: Joi.number().integer().min(1).default(10), q: Joi.string().required() }),
          body,
        },
        responses: { 201: json('Created', succeeded(Joi, { id: Joi.string().required() }).id('Thing')) },
        errors: [400, 404],
      }),
    ],
  }) as { paths: Record<string, Record<string, Record<string, unknown>>>; components: { schemas: object } };
  const op = doc.paths['/things/{thing_id}'].post;

  it('when request parts are Joi objects, then each key is a parameter with its place, requiredness and description', () => {
    expect(op.parameters).toEqual([
      {
        name: 'thing_id',
        in: 'path',
        required: true,
        description: 'Thing id',
        schema: { type: 'string', format: 'uuid' },
      },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', default: 10, minimum: 1 } },
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
    ]);
    expect(op.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
    });
  });

  it('when errors are listed, then they use the common envelope, and keyed operations also document 429 and 503', () => {
    expect(Object.keys(op.responses as object).sort()).toEqual(['201', '400', '404', '429', '503']);
    expect((op.responses as Record<string, unknown>)['404']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });

  it('when a response is not JSON (an event stream) or the method is OPTIONS, then both are documented as given', () => {
    const streamed = buildContractDocument({
      title: 't',
      description: 'd',
      operations: [
        {
          method: 'get',
          path: '/stream',
          operationId: 'stream',
          summary: 's',
          security: [],
          responses: {
            200: { description: 'Events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          },
        },
        {
          method: 'options',
          path: '/stream',
          operationId: 'preflight',
          summary: 'p',
          security: [],
          responses: { 204: { description: 'Allowed' } },
        },
      ],
    }) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(streamed.paths['/stream'].get.responses['200']).toEqual({
      description: 'Events',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    });
    expect(streamed.paths['/stream'].options.responses['204']).toEqual({ description: 'Allowed' });
  });

  it('when a JSON response also has another media type and headers, then all are documented', () => {
    const both = buildContractDocument({
      title: 't',
      description: 'd',
      operations: [
        {
          method: 'post',
          path: '/chat',
          operationId: 'chat',
          summary: 'c',
          security: [],
          responses: {
            200: {
              ...json('Whole or streamed', Joi.object({ id: Joi.string().required() })),
              content: { 'text/event-stream': { schema: { type: 'string' } } },
              headers: { 'x-cost': { schema: { type: 'string' } } },
            },
          },
        },
      ],
    }) as { paths: Record<string, Record<string, { responses: Record<string, Record<string, object>> }>> };
    const ok = both.paths['/chat'].post.responses['200'];
    expect(Object.keys(ok.content)).toEqual(['application/json', 'text/event-stream']);
    expect(ok.headers).toEqual({ 'x-cost': { schema: { type: 'string' } } });
  });

  it('when every schema is compiled, then every reference resolves and valid answers pass', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile({ $ref: '#/components/schemas/Thing', components: doc.components });
    expect(validate({ success: true, id: 'x' })).toBe(true);
    expect(validate({ success: true })).toBe(false);
  });
});

describe('tags', () => {
  const operation = (path: string, tags?: string[]) =>
    defineOperation({
      method: 'get',
      path,
      operationId: path.replace(/\W/g, ''),
      summary: 'Get',
      security: KEYS,
      ...(tags ? { tags } : {}),
      responses: { 200: json('Done', succeeded(Joi, {})) },
      errors: [404],
    });
  const doc = buildContractDocument({
    title: 't',
    description: 'd',
    operations: [
      operation('/pay/customers/{id}'),
      operation('/pay/customers'),
      operation('/pay/config'),
      operation('/widgets/{id}'),
      operation('/.well-known/keys.json'),
      operation('/widgets/special', ['specials']),
    ],
    tags: [
      { name: 'customers', description: 'Customers', paths: ['/pay/customers'] },
      { name: 'pay', description: 'Payments', paths: ['/pay'] },
    ],
  }) as { paths: Record<string, { get: { tags: string[] } }>; tags: unknown };

  it('when an operation names no tag, then it takes the declared tag with the longest prefix of its path, else its first segment', () => {
    const tagOf = (path: string) => doc.paths[path].get.tags;
    expect(tagOf('/pay/customers/{id}')).toEqual(['customers']);
    expect(tagOf('/pay/customers')).toEqual(['customers']);
    expect(tagOf('/pay/config')).toEqual(['pay']);
    expect(tagOf('/widgets/{id}')).toEqual(['widgets']);
    expect(tagOf('/.well-known/keys.json')).toEqual(['well-known']);
    expect(tagOf('/widgets/special')).toEqual(['specials']);
  });

  it('when tags are used, then the document lists each with a description, declared ones first', () => {
    expect(doc.tags).toEqual([
      { name: 'customers', description: 'Customers' },
      { name: 'pay', description: 'Payments' },
      { name: 'widgets', description: 'Operations under /v1/widgets' },
      { name: 'well-known', description: 'Operations under /v1/.well-known' },
      { name: 'specials', description: 'Operations under /v1/widgets' },
    ]);
  });
});
