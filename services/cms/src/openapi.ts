import { buildOpenApiDocument, errorResponses, jsonBody, jsonResponse, KEYS, type JsonSchema } from '@platform/tenancy';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const timestamp = { type: 'string', format: 'date-time' };
const kinds = { type: 'string', enum: ['blog', 'faq', 'page', 'custom'] };
const statuses = {
  type: 'string',
  enum: ['draft', 'published', 'archived'],
  description: 'draft (not public), published (live), archived (hidden, retained). Any status may move to any other.',
};
const slug = {
  type: 'string',
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  maxLength: 200,
  description: 'Unique per project and type.',
};
const uuidParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});
const query = (name: string, schema: JsonSchema, description?: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
const limit = (byDefault: number) => query('limit', { type: 'integer', minimum: 1, maximum: 100, default: byDefault });
const offset = query('offset', { type: 'integer', minimum: 0, default: 0 });

const schemas: Record<string, JsonSchema> = {
  ContentItem: {
    type: 'object',
    required: [
      'id',
      'tenantId',
      'projectId',
      'type',
      'title',
      'slug',
      'content',
      'status',
      'metadata',
      'contentType',
      'createdAt',
      'updatedAt',
    ],
    properties: {
      id: { type: 'string', format: 'uuid' },
      tenantId: { type: 'string' },
      projectId: { type: 'string' },
      type: kinds,
      title: { type: 'string' },
      slug,
      content: { type: 'string', description: 'For custom items, a JSON document as a string.' },
      status: statuses,
      metadata: { type: 'object' },
      contentType: {
        type: ['string', 'null'],
        description: 'Name of the content type of a custom item; null otherwise.',
      },
      createdAt: timestamp,
      updatedAt: timestamp,
    },
  },
  ContentSummary: {
    type: 'object',
    required: ['id', 'type', 'title', 'slug', 'status', 'createdAt'],
    properties: {
      id: { type: 'string' },
      type: kinds,
      title: { type: 'string' },
      slug,
      status: statuses,
      createdAt: timestamp,
    },
  },
  ContentTypeSummary: {
    type: 'object',
    required: ['id', 'name', 'description', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string' },
      description: { type: ['string', 'null'] },
      createdAt: timestamp,
      updatedAt: timestamp,
    },
  },
  ContentType: {
    allOf: [
      ref('ContentTypeSummary'),
      {
        type: 'object',
        required: ['schema'],
        properties: {
          schema: {
            type: 'object',
            description: 'A JSON Schema (draft-07 by default; 2019-09 and 2020-12 by $schema).',
          },
        },
      },
    ],
  },
  NewsItem: {
    type: 'object',
    required: ['id', 'title', 'description', 'url', 'publishedAt', 'source', 'category'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      title: { type: 'string' },
      description: { type: 'string' },
      url: { type: 'string', format: 'uri' },
      publishedAt: { type: ['string', 'null'], format: 'date-time' },
      source: { type: 'string', description: 'The feed title, or its host when the feed has none.' },
      category: { type: 'string' },
    },
  },
};

const createContentBody = {
  type: 'object',
  required: ['type', 'title', 'content'],
  properties: {
    type: kinds,
    title: { type: 'string', minLength: 1, maxLength: 500 },
    content: { type: 'string' },
    slug: {
      ...slug,
      description:
        'Generated from the title when absent (ASCII, lowercase, hyphens; -2, -3 on collision). A taken explicit slug is 409.',
    },
    metadata: { type: 'object' },
    status: { ...statuses, default: 'draft' },
    contentType: {
      type: 'string',
      description: 'Required when type is custom (the content type name); not allowed otherwise.',
    },
  },
};

const updateContentBody = {
  type: 'object',
  description: 'Only the fields sent change. metadata is replaced as a whole. type and contentType cannot change.',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 500 },
    content: { type: 'string' },
    metadata: { type: 'object' },
    status: statuses,
    slug,
  },
};

const contentTypeBody = (required: string[]) => ({
  type: 'object',
  required,
  properties: {
    ...(required.includes('name')
      ? { name: { type: 'string', minLength: 1, maxLength: 100, description: 'Unique per project.' } }
      : {}),
    description: { type: ['string', 'null'], maxLength: 2000 },
    schema: { type: 'object', description: 'Must compile as a JSON Schema, else 400.' },
  },
});

const PATTERN_LIMITS =
  "Regexes in the schema (`pattern`, `patternProperties`) run on RE2: at most 1,000 characters each, and all of them must compile within the service's budget (`CMS_PATTERN_COMPILE_BUDGET_MS`, default 250 ms), else 400 naming the pattern's path. 503 when patterns cannot be checked at the moment (retry).";
const contentId = uuidParam('content_id', 'Content item id');
const typeId = uuidParam('content_type_id', 'Content type id');

export const openapi = buildOpenApiDocument({
  title: 'CMS service',
  description:
    'Content items (blog, faq, page, custom), custom content types validated by JSON Schema, and platform-wide news refreshed from RSS/Atom feeds every 2 hours. Part of the application backend platform. All paths start with /v1.',
  schemas,
  paths: {
    '/content': {
      post: {
        summary: 'Create a content item',
        description:
          'A custom item names its content type in contentType; its content must be a JSON document the type schema accepts (each schema error is listed in details).',
        security: KEYS,
        requestBody: jsonBody(createContentBody),
        responses: { '201': jsonResponse('The created item', ref('ContentItem')), ...errorResponses(400, 401, 409) },
      },
      get: {
        summary: 'List content items (summaries), newest first',
        security: KEYS,
        parameters: [
          query('type', kinds),
          query('status', statuses),
          query('slug', { type: 'string' }, 'Exact slug (combine with type)'),
          limit(20),
          offset,
        ],
        responses: {
          '200': jsonResponse('A page of summaries', {
            type: 'object',
            required: ['content', 'total', 'limit', 'offset'],
            properties: {
              content: { type: 'array', items: ref('ContentSummary') },
              total: { type: 'integer' },
              limit: { type: 'integer' },
              offset: { type: 'integer' },
            },
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    '/content/{content_id}': {
      parameters: [contentId],
      get: {
        summary: 'Get a content item',
        security: KEYS,
        responses: { '200': jsonResponse('The item', ref('ContentItem')), ...errorResponses(401, 404) },
      },
      put: {
        summary: 'Update a content item',
        security: KEYS,
        requestBody: jsonBody(updateContentBody),
        responses: {
          '200': jsonResponse('The updated item', ref('ContentItem')),
          ...errorResponses(400, 401, 404, 409),
        },
      },
      delete: {
        summary: 'Delete a content item permanently',
        security: KEYS,
        responses: { '204': { description: 'Deleted' }, ...errorResponses(401, 404) },
      },
    },
    '/content-types': {
      post: {
        summary: 'Define a content type',
        description: PATTERN_LIMITS,
        security: KEYS,
        requestBody: jsonBody(contentTypeBody(['name', 'schema'])),
        responses: {
          '201': jsonResponse('The created type', ref('ContentType')),
          ...errorResponses(400, 401, 409, 503),
        },
      },
      get: {
        summary: "List the project's content types",
        security: KEYS,
        responses: {
          '200': jsonResponse('The types, newest first', {
            type: 'object',
            required: ['contentTypes'],
            properties: { contentTypes: { type: 'array', items: ref('ContentTypeSummary') } },
          }),
          ...errorResponses(401),
        },
      },
    },
    '/content-types/{content_type_id}': {
      parameters: [typeId],
      get: {
        summary: 'Get a content type with its schema',
        security: KEYS,
        responses: { '200': jsonResponse('The type', ref('ContentType')), ...errorResponses(401, 404) },
      },
      put: {
        summary: "Change a content type's description or schema",
        description: `The name cannot change. Items already stored are not revalidated; the new schema applies to later creates and content updates. ${PATTERN_LIMITS}`,
        security: KEYS,
        requestBody: jsonBody(contentTypeBody([])),
        responses: {
          '200': jsonResponse('The updated type', ref('ContentType')),
          ...errorResponses(400, 401, 404, 503),
        },
      },
    },
    '/news': {
      get: {
        summary: 'Latest news (platform-wide), newest first',
        security: KEYS,
        parameters: [query('category', { type: 'string' }), limit(10), offset],
        responses: {
          '200': jsonResponse('News items', {
            type: 'object',
            required: ['news'],
            properties: { news: { type: 'array', items: ref('NewsItem') } },
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    '/news/{news_id}': {
      parameters: [uuidParam('news_id', 'News item id')],
      get: {
        summary: 'One news item',
        security: KEYS,
        responses: { '200': jsonResponse('The news item', ref('NewsItem')), ...errorResponses(401, 404) },
      },
    },
  },
});
