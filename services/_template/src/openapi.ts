import {
  buildOpenApiDocument,
  errorResponses,
  jsonBody,
  jsonResponse,
  KEYS,
  type JsonSchema,
} from '@platform/contract';

const note: JsonSchema = {
  type: 'object',
  required: ['id', 'title', 'body', 'createdAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid' },
    title: { type: 'string' },
    body: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

export const openapi = buildOpenApiDocument({
  title: 'Template service',
  description: 'The service shape as a tiny example (docs/service-shape.md). All paths start with /v1.',
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        security: KEYS,
        requestBody: jsonBody({
          type: 'object',
          required: ['title', 'body'],
          properties: { title: { type: 'string' }, body: { type: 'string' } },
        }),
        responses: {
          '201': jsonResponse('The note', { $ref: '#/components/schemas/Note' }),
          ...errorResponses(400, 401),
        },
      },
    },
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        security: KEYS,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': jsonResponse('The note', { $ref: '#/components/schemas/Note' }),
          ...errorResponses(401, 404),
        },
      },
    },
  },
  schemas: { Note: note },
});
