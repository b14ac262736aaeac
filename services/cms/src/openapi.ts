/**
 * The CMS service's contract: every operation, its request schemas (the routes' own) and responses.
 * The operation ids are the names the client had before they were written down: keep them.
 */
import { buildContractDocument, json, type OperationDefinition, KEYS } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { contentItemResponse, contentSummaryResponse } from './content/content.responses';
import {
  createContentSchema,
  getContentQuerySchema,
  listContentQuerySchema,
  updateContentQuerySchema,
  updateContentSchema,
} from './content/content.schemas';
import { contentTypeResponse, contentTypeSummaryResponse } from './content-types/content-types.responses';
import { createContentTypeSchema, updateContentTypeSchema } from './content-types/content-types.schemas';
import { newsItemResponse } from './news/news.responses';
import { listNewsQuerySchema } from './news/news.schemas';
import { revisionResponse } from './revisions/revisions.responses';
import { listRevisionsQuerySchema } from './revisions/revisions.schemas';
import { pageOf } from './shared/responses';
import { webhookDeliveryResponse, webhookResponse } from './webhooks/webhooks.responses';
import { createWebhookSchema, listDeliveriesQuerySchema } from './webhooks/webhooks.schemas';

/** Path parameters: any text, an unknown or malformed id is 404 like a missing one. */
const params = (names: Record<string, string>) =>
  Joi.object(
    Object.fromEntries(
      Object.entries(names).map(([name, description]) => [name, Joi.string().description(description).required()]),
    ),
  );
const contentId = { content_id: 'Content item id' };
const revision = { ...contentId, number: 'Revision number (1 is the creation)' };
const webhookId = { webhook_id: 'Webhook id' };
const typeId = { content_type_id: 'Content type id' };

const PATTERN_LIMITS =
  "Regexes in the schema (`pattern`, `patternProperties`) run on RE2: at most 1,000 characters each, and all of them must compile within the service's budget (`CMS_PATTERN_COMPILE_BUDGET_MS`, default 250 ms), else 400 naming the pattern's path. 503 when patterns cannot be checked at the moment (retry).";

const contentOperations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/content',
    operationId: 'postContent',
    summary: 'Create a content item',
    description:
      'A custom item names its content type in contentType; its content must be a JSON document the type schema accepts (each schema error is listed in details).',
    security: KEYS,
    request: { body: createContentSchema },
    responses: { 201: json('The created item', contentItemResponse) },
    errors: [400, 401, 409],
  },
  {
    method: 'get',
    path: '/content',
    operationId: 'getContent',
    summary: 'List content items (summaries), newest first',
    security: KEYS,
    request: { query: listContentQuerySchema },
    responses: { 200: json('A page of summaries', pageOf('content', contentSummaryResponse)) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/content/{content_id}',
    operationId: 'getContentByContentId',
    summary: 'Get a content item',
    security: KEYS,
    request: { params: params(contentId), query: getContentQuerySchema },
    responses: { 200: json('The item', contentItemResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'put',
    path: '/content/{content_id}',
    operationId: 'putContentByContentId',
    summary: 'Update a content item',
    description:
      'Every change to the live item writes a revision. With ?draft=true on a published item the change goes to its pending draft instead (readers keep the published version; status cannot be sent; publishAt schedules the draft); on any other item ?draft=true is an ordinary update.',
    security: KEYS,
    request: { params: params(contentId), query: updateContentQuerySchema, body: updateContentSchema },
    responses: { 200: json('The updated item (with ?draft=true: the draft view)', contentItemResponse) },
    errors: [400, 401, 404, 409],
  },
  {
    method: 'delete',
    path: '/content/{content_id}',
    operationId: 'deleteContentByContentId',
    summary: 'Delete a content item permanently',
    security: KEYS,
    request: { params: params(contentId) },
    responses: { 204: { description: 'Deleted' } },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/content/{content_id}/publish',
    operationId: 'postContentByContentIdPublish',
    summary: 'Publish: the pending draft goes live, or an unpublished item becomes published',
    description: "409 when the item is published and has no pending draft, or the draft's slug is taken.",
    security: KEYS,
    request: { params: params(contentId) },
    responses: { 200: json('The published item', contentItemResponse) },
    errors: [401, 404, 409],
  },
  {
    method: 'delete',
    path: '/content/{content_id}/draft',
    operationId: 'deleteContentByContentIdDraft',
    summary: 'Discard the pending draft',
    security: KEYS,
    request: { params: params(contentId) },
    responses: { 204: { description: 'Discarded' } },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/content/{content_id}/revisions',
    operationId: 'getContentByContentIdRevisions',
    summary: "The item's revisions, newest first",
    description:
      'Every create, update, status change (scheduled ones too) and restore wrote one; a draft alone does not.',
    security: KEYS,
    request: { params: params(contentId), query: listRevisionsQuerySchema },
    responses: { 200: json('A page of revisions', pageOf('revisions', revisionResponse)) },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/content/{content_id}/revisions/{number}',
    operationId: 'getContentByContentIdRevisionsByNumber',
    summary: 'One revision',
    security: KEYS,
    request: { params: params(revision) },
    responses: { 200: json('The revision', revisionResponse) },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/content/{content_id}/revisions/{number}/restore',
    operationId: 'postContentByContentIdRevisionsByNumberRestore',
    summary: 'Restore a revision',
    description:
      "The item's fields and status become the revision's again, as a new revision (webhooks as for any change). A pending draft stays. 409 when the revision's slug is now another item's.",
    security: KEYS,
    request: { params: params(revision) },
    responses: { 200: json('The item', contentItemResponse) },
    errors: [401, 404, 409],
  },
];

const webhookOperations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/webhooks',
    operationId: 'postWebhooks',
    summary: 'Subscribe a URL to content events',
    description:
      'Deliveries are POSTed as JSON signed like the LLM batch webhooks: X-Webhook-Signature `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the project\'s webhookSecret, X-Webhook-Id (the delivery id, the same on retries), X-Webhook-Attempt; and the Standard Webhooks headers webhook-id (the same id), webhook-timestamp, webhook-signature `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the secret\'s base64 bytes (`new Webhook(webhookSecret)` of the standardwebhooks libraries verifies them). URLs resolving to private addresses are refused; failed attempts are retried with backoff.',
    security: KEYS,
    request: { body: createWebhookSchema },
    responses: { 201: json('The webhook', webhookResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/webhooks',
    operationId: 'getWebhooks',
    summary: "The project's webhooks, newest first",
    security: KEYS,
    responses: { 200: json('The webhooks', Joi.object({ webhooks: Joi.array().items(webhookResponse).required() })) },
    errors: [401],
  },
  {
    method: 'delete',
    path: '/webhooks/{webhook_id}',
    operationId: 'deleteWebhooksByWebhookId',
    summary: 'Delete a webhook (and its delivery history)',
    security: KEYS,
    request: { params: params(webhookId) },
    responses: { 204: { description: 'Deleted' } },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/webhooks/{webhook_id}/deliveries',
    operationId: 'getWebhooksByWebhookIdDeliveries',
    summary: "The webhook's deliveries with their attempts, newest first",
    security: KEYS,
    request: { params: params(webhookId), query: listDeliveriesQuerySchema },
    responses: { 200: json('A page of deliveries', pageOf('deliveries', webhookDeliveryResponse)) },
    errors: [400, 401, 404],
  },
  {
    method: 'post',
    path: '/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
    operationId: 'postWebhooksByWebhookIdDeliveriesByDeliveryIdRedeliver',
    summary: 'Deliver again',
    description:
      'A new series of attempts (with retries) of the same body and X-Webhook-Id, whatever became of the earlier ones.',
    security: KEYS,
    request: { params: params({ ...webhookId, delivery_id: 'Delivery id' }) },
    responses: { 202: json('The delivery, pending', webhookDeliveryResponse) },
    errors: [401, 404],
  },
];

const contentTypeOperations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/content-types',
    operationId: 'postContentTypes',
    summary: 'Define a content type',
    description: PATTERN_LIMITS,
    security: KEYS,
    request: { body: createContentTypeSchema },
    responses: { 201: json('The created type', contentTypeResponse) },
    errors: [400, 401, 409, 503],
  },
  {
    method: 'get',
    path: '/content-types',
    operationId: 'getContentTypes',
    summary: "List the project's content types",
    security: KEYS,
    responses: {
      200: json(
        'The types, newest first',
        Joi.object({ contentTypes: Joi.array().items(contentTypeSummaryResponse).required() }),
      ),
    },
    errors: [401],
  },
  {
    method: 'get',
    path: '/content-types/{content_type_id}',
    operationId: 'getContentTypesByContentTypeId',
    summary: 'Get a content type with its schema',
    security: KEYS,
    request: { params: params(typeId) },
    responses: { 200: json('The type', contentTypeResponse) },
    errors: [401, 404],
  },
  {
    method: 'put',
    path: '/content-types/{content_type_id}',
    operationId: 'putContentTypesByContentTypeId',
    summary: "Change a content type's description or schema",
    description: `The name cannot change. Items already stored are not revalidated; the new schema applies to later creates and content updates. ${PATTERN_LIMITS}`,
    security: KEYS,
    request: { params: params(typeId), body: updateContentTypeSchema },
    responses: { 200: json('The updated type', contentTypeResponse) },
    errors: [400, 401, 404, 503],
  },
];

const newsOperations: OperationDefinition[] = [
  {
    method: 'get',
    path: '/news',
    operationId: 'getNews',
    summary: 'Latest news (platform-wide), newest first',
    security: KEYS,
    request: { query: listNewsQuerySchema },
    responses: { 200: json('News items', Joi.object({ news: Joi.array().items(newsItemResponse).required() })) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/news/{news_id}',
    operationId: 'getNewsByNewsId',
    summary: 'One news item',
    security: KEYS,
    request: { params: params({ news_id: 'News item id' }) },
    responses: { 200: json('The news item', newsItemResponse) },
    errors: [401, 404],
  },
];

export const openapi = buildContractDocument({
  title: 'CMS service',
  description:
    'Content items (blog, faq, page, custom), custom content types validated by JSON Schema, and platform-wide news refreshed from RSS/Atom feeds every 2 hours. Part of the application backend platform. All paths start with /v1.',
  operations: [...contentOperations, ...webhookOperations, ...contentTypeOperations, ...newsOperations],
  tags: [
    { name: 'content', description: 'Content items, their drafts, publishing and revisions', paths: ['/content'] },
    {
      name: 'content-types',
      description: 'Content types: the JSON Schema a type of content follows',
      paths: ['/content-types'],
    },
    {
      name: 'webhooks',
      description: 'Webhooks told about content changes, and their deliveries',
      paths: ['/webhooks'],
    },
    { name: 'news', description: 'News read from the configured feeds', paths: ['/news'] },
  ],
});
