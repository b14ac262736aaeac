import { assertRequestMatchesOpenApi } from './openapi-request-check';

const doc = {
  paths: {
    '/things/{thing_id}': {
      put: {
        parameters: [
          { name: 'thing_id', in: 'path', required: true, schema: { type: 'string', pattern: '^t_[a-z]+$' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'x-mode', in: 'header', required: true, schema: { enum: ['a', 'b'] } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingInput' } } },
        },
        responses: {},
      },
    },
    '/things': { get: { responses: {} } },
  },
  components: {
    schemas: { ThingInput: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
  },
};

const valid = {
  method: 'PUT',
  path: '/v1/things/t_abc?limit=3',
  headers: { 'X-Mode': 'a' },
  body: { name: 'x', extra: true },
};

describe('request checks against the OpenAPI document', () => {
  it('when the request is what the document describes, then it passes (text parameters coerced, extra keys allowed)', () => {
    expect(() => assertRequestMatchesOpenApi(doc, valid)).not.toThrow();
  });

  it.each([
    ['a path parameter off its pattern', { path: '/v1/things/T-1' }, /path parameter thing_id/],
    ['a query parameter of the wrong type', { path: '/v1/things/t_abc?limit=zero' }, /query parameter limit/],
    ['a required header missing', { headers: {} }, /header parameter x-mode is missing/],
    ['a body without a required field', { body: { other: 1 } }, /body does not match/],
    ['no body where one is required', { body: undefined }, /body is required/],
    ['an undocumented operation', { method: 'DELETE' }, /no operation/],
  ])('when the request has %s, then it is refused', (_, change, message) => {
    expect(() => assertRequestMatchesOpenApi(doc, { ...valid, ...change })).toThrow(message);
  });

  it('when an operation documents no body and one is sent, then it is refused; an empty object is tolerated', () => {
    expect(() => assertRequestMatchesOpenApi(doc, { method: 'GET', path: '/things', body: { a: 1 } })).toThrow(
      /describes none/,
    );
    expect(() => assertRequestMatchesOpenApi(doc, { method: 'GET', path: '/things', body: {} })).not.toThrow();
  });
});
