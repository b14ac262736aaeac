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
const scheduled = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description });
const contentEvents = {
  type: 'string',
  enum: ['content.created', 'content.updated', 'content.published', 'content.unpublished', 'content.deleted'],
};
const scheduleFields = {
  publishAt: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'ISO 8601, in the future (else 400): the item (with ?draft=true, its draft) becomes published then, within 30 s. null clears it.',
  },
  unpublishAt: {
    type: ['string', 'null'],
    format: 'date-time',
    description:
      'ISO 8601, in the future and after publishAt (else 400): the item stops being published then (status draft). null clears it.',
  },
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
      'revision',
      'publishAt',
      'unpublishAt',
      'hasDraft',
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
      revision: { type: 'integer', description: 'Number of the latest revision (0 for items older than revisions).' },
      publishAt: scheduled('When the item becomes published (in the draft view: when the draft does).'),
      unpublishAt: scheduled('When the item stops being published (its status becomes draft).'),
      hasDraft: { type: 'boolean', description: 'A published item has a pending draft (GET ?version=draft).' },
      createdAt: timestamp,
      updatedAt: timestamp,
    },
  },
  ContentSummary: {
    type: 'object',
    required: ['id', 'type', 'title', 'slug', 'status', 'publishAt', 'unpublishAt', 'createdAt'],
    properties: {
      id: { type: 'string' },
      type: kinds,
      title: { type: 'string' },
      slug,
      status: statuses,
      publishAt: scheduled('When the item becomes published.'),
      unpublishAt: scheduled('When the item stops being published.'),
      createdAt: timestamp,
    },
  },
  Revision: {
    type: 'object',
    required: ['contentId', 'number', 'change', 'title', 'slug', 'content', 'status', 'metadata', 'createdAt'],
    properties: {
      contentId: { type: 'string', format: 'uuid' },
      number: { type: 'integer', minimum: 1 },
      change: { type: 'string', enum: ['created', 'updated', 'published', 'unpublished', 'restored'] },
      title: { type: 'string' },
      slug,
      content: { type: 'string' },
      status: statuses,
      metadata: { type: 'object' },
      createdAt: timestamp,
    },
  },
  Webhook: {
    type: 'object',
    required: ['id', 'url', 'events', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', items: contentEvents },
      createdAt: timestamp,
    },
  },
  WebhookAttempt: {
    type: 'object',
    required: ['attempt', 'outcome', 'statusCode', 'error', 'durationMs', 'createdAt'],
    properties: {
      attempt: { type: 'integer', minimum: 1 },
      outcome: {
        type: 'string',
        enum: ['delivered', 'failed', 'refused'],
        description: 'refused: the URL resolves to a private address, or the project has no webhook secret.',
      },
      statusCode: { type: ['integer', 'null'] },
      error: { type: ['string', 'null'] },
      durationMs: { type: 'integer' },
      createdAt: timestamp,
    },
  },
  WebhookDelivery: {
    type: 'object',
    required: ['id', 'webhookId', 'event', 'status', 'attemptCount', 'payload', 'attempts', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', format: 'uuid', description: 'Sent as X-Webhook-Id on every attempt.' },
      webhookId: { type: 'string', format: 'uuid' },
      event: contentEvents,
      status: {
        type: 'string',
        enum: ['pending', 'delivered', 'failed', 'refused'],
        description: 'pending: an attempt is due or running; failed: every retry failed.',
      },
      attemptCount: { type: 'integer' },
      payload: { type: 'object', description: 'The JSON body sent (and signed): {id, event, occurredAt, data}.' },
      attempts: { type: 'array', items: ref('WebhookAttempt') },
      createdAt: timestamp,
      updatedAt: timestamp,
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
    ...scheduleFields,
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
    ...scheduleFields,
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
const page = (name: string, items: JsonSchema) => ({
  type: 'object',
  required: [name, 'total', 'limit', 'offset'],
  properties: {
    [name]: { type: 'array', items },
    total: { type: 'integer' },
    limit: { type: 'integer' },
    offset: { type: 'integer' },
  },
});
const revisionNumber = {
  name: 'number',
  in: 'path',
  required: true,
  description: 'Revision number (1 is the creation)',
  schema: { type: 'string' },
};
const webhookId = uuidParam('webhook_id', 'Webhook id');

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
          query(
            'q',
            { type: 'string', minLength: 1, maxLength: 500 },
            'Full-text search, ranked (title above content above metadata strings) instead of newest first: words (all must match), "quoted phrases", -excluded words, or. Any text is accepted. Words are matched in the project\'s searchLanguage setting (a Postgres text search configuration, simple by default), as the item was written.',
          ),
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
        parameters: [
          query(
            'version',
            { type: 'string', enum: ['live', 'draft'], default: 'live' },
            'draft: the pending draft of a published item as it will read once published (the item itself when it has none).',
          ),
        ],
        responses: { '200': jsonResponse('The item', ref('ContentItem')), ...errorResponses(400, 401, 404) },
      },
      put: {
        summary: 'Update a content item',
        description:
          'Every change to the live item writes a revision. With ?draft=true on a published item the change goes to its pending draft instead (readers keep the published version; status cannot be sent; publishAt schedules the draft); on any other item ?draft=true is an ordinary update.',
        security: KEYS,
        parameters: [query('draft', { type: 'boolean', default: false })],
        requestBody: jsonBody(updateContentBody),
        responses: {
          '200': jsonResponse('The updated item (with ?draft=true: the draft view)', ref('ContentItem')),
          ...errorResponses(400, 401, 404, 409),
        },
      },
      delete: {
        summary: 'Delete a content item permanently',
        security: KEYS,
        responses: { '204': { description: 'Deleted' }, ...errorResponses(401, 404) },
      },
    },
    '/content/{content_id}/publish': {
      parameters: [contentId],
      post: {
        summary: 'Publish: the pending draft goes live, or an unpublished item becomes published',
        description: "409 when the item is published and has no pending draft, or the draft's slug is taken.",
        security: KEYS,
        responses: {
          '200': jsonResponse('The published item', ref('ContentItem')),
          ...errorResponses(401, 404, 409),
        },
      },
    },
    '/content/{content_id}/draft': {
      parameters: [contentId],
      delete: {
        summary: 'Discard the pending draft',
        security: KEYS,
        responses: { '204': { description: 'Discarded' }, ...errorResponses(401, 404) },
      },
    },
    '/content/{content_id}/revisions': {
      parameters: [contentId],
      get: {
        summary: "The item's revisions, newest first",
        description:
          'Every create, update, status change (scheduled ones too) and restore wrote one; a draft alone does not.',
        security: KEYS,
        parameters: [limit(20), offset],
        responses: {
          '200': jsonResponse('A page of revisions', page('revisions', ref('Revision'))),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    '/content/{content_id}/revisions/{number}': {
      parameters: [contentId, revisionNumber],
      get: {
        summary: 'One revision',
        security: KEYS,
        responses: { '200': jsonResponse('The revision', ref('Revision')), ...errorResponses(401, 404) },
      },
    },
    '/content/{content_id}/revisions/{number}/restore': {
      parameters: [contentId, revisionNumber],
      post: {
        summary: 'Restore a revision',
        description:
          "The item's fields and status become the revision's again, as a new revision (webhooks as for any change). A pending draft stays. 409 when the revision's slug is now another item's.",
        security: KEYS,
        responses: { '200': jsonResponse('The item', ref('ContentItem')), ...errorResponses(401, 404, 409) },
      },
    },
    '/webhooks': {
      post: {
        summary: 'Subscribe a URL to content events',
        description:
          'Deliveries are POSTed as JSON signed like the LLM batch webhooks: X-Webhook-Signature `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the project\'s webhookSecret, X-Webhook-Id (the delivery id, the same on retries), X-Webhook-Attempt. URLs resolving to private addresses are refused; failed attempts are retried with backoff.',
        security: KEYS,
        requestBody: jsonBody({
          type: 'object',
          required: ['url', 'events'],
          properties: {
            url: {
              type: 'string',
              format: 'uri',
              maxLength: 2048,
              description: 'HTTPS (plain HTTP only to allow-listed hosts).',
            },
            events: { type: 'array', minItems: 1, uniqueItems: true, items: contentEvents },
          },
        }),
        responses: { '201': jsonResponse('The webhook', ref('Webhook')), ...errorResponses(400, 401) },
      },
      get: {
        summary: "The project's webhooks, newest first",
        security: KEYS,
        responses: {
          '200': jsonResponse('The webhooks', {
            type: 'object',
            required: ['webhooks'],
            properties: { webhooks: { type: 'array', items: ref('Webhook') } },
          }),
          ...errorResponses(401),
        },
      },
    },
    '/webhooks/{webhook_id}': {
      parameters: [webhookId],
      delete: {
        summary: 'Delete a webhook (and its delivery history)',
        security: KEYS,
        responses: { '204': { description: 'Deleted' }, ...errorResponses(401, 404) },
      },
    },
    '/webhooks/{webhook_id}/deliveries': {
      parameters: [webhookId],
      get: {
        summary: "The webhook's deliveries with their attempts, newest first",
        security: KEYS,
        parameters: [limit(20), offset],
        responses: {
          '200': jsonResponse('A page of deliveries', page('deliveries', ref('WebhookDelivery'))),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    '/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': {
      parameters: [webhookId, uuidParam('delivery_id', 'Delivery id')],
      post: {
        summary: 'Deliver again',
        description:
          'A new series of attempts (with retries) of the same body and X-Webhook-Id, whatever became of the earlier ones.',
        security: KEYS,
        responses: {
          '202': jsonResponse('The delivery, pending', ref('WebhookDelivery')),
          ...errorResponses(401, 404),
        },
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
