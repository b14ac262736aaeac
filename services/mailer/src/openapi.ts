/** The Mailer service's contract: every operation, its request schemas (the routes' own) and responses. */
import { buildContractDocument, json, type OperationDefinition, KEYS, type JsonSchema } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import {
  dailyStatsResponse,
  logListResponse,
  recipientLogsResponse,
  sentEmailResponse,
  statsResponse,
} from './emails/emails.responses';
import {
  dailyStatsSchema,
  idempotencyKeySchema,
  listLogsSchema,
  recipientPageSchema,
  recipientSchema,
  sendEmailSchema,
} from './emails/emails.schemas';
import { providerListResponse, providerResponse, providerTestResponse } from './providers/providers.responses';
import { createProviderSchema, testProviderSchema, updateProviderSchema } from './providers/providers.schemas';
import { suppressionListResponse, suppressionResponse } from './suppressions/suppressions.responses';
import {
  addSuppressionSchema,
  listSuppressionsSchema,
  suppressedEmailSchema,
} from './suppressions/suppressions.schemas';
import { renderedResponse, templateListResponse, templateResponse } from './templates/templates.responses';
import {
  createTemplateSchema,
  listTemplatesSchema,
  previewSchema,
  updateTemplateSchema,
} from './templates/templates.schemas';
import { unsubscribedResponse } from './unsubscribe/unsubscribe.responses';
import { webhookResultResponse } from './webhooks/webhooks.responses';

/** The recipient limit is configuration (MAILER_MAX_RECIPIENTS); the document shows its highest value. */
const MAX_RECIPIENTS = 1000;

const pathParam = (name: string, schema: Joi.Schema, description: string) =>
  Joi.object({ [name]: schema.description(description).required() });
const idParam = (name: string, description: string) => pathParam(name, Joi.string(), description);
const templateId = idParam('template_id', 'Template id');
const providerId = idParam('provider_id', 'Provider id');
const token = idParam('token', "Signed with the project's own secret");

// Keep the generated client's method names: they were derived from method and path before the document named them.
const operations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/emails/send',
    operationId: 'postEmailsSend',
    summary: 'Send an email',
    description:
      'Either html (with optional text) or templateId (id or templateKey, with optional templateData and locale). subject is required ' +
      'unless the template gives it. `to` is one address or a list (MAILER_MAX_RECIPIENTS, default 50); each distinct ' +
      'recipient (case-insensitive) gets its own email and log; recipients go out several at once (the share of send slots of the project' +
      '), and one whose turn comes after the vendor deadline (MAILER_VENDOR_TIMEOUT_MS from the start) is not tried ' +
      'and logged failed. ' +
      'A recipient on the suppression list is not handed to any ' +
      'provider: its result and log say `suppressed` with the reason, and the other recipients still go out. ' +
      'Providers are tried in failover order (priority, then the default, then the oldest): a timeout, connection error, 5xx, ' +
      'refused credentials (401/403) or throttling (408/429) moves on to the next provider; any other 4xx (the message itself) ' +
      'does not. Each recipient gets one log entry (one count in the stats) holding every provider it tried in `attempts`. ' +
      'A provider that failed MAILER_FAILOVER_FAILURES times in a row is skipped for ' +
      'MAILER_FAILOVER_COOLDOWN_SECONDS, then tried again (unless every provider is cooling down). No provider: 403 ' +
      'PROVIDER_NOT_CONFIGURED in production. When every recipient that was tried failed, the send is 500 VENDOR_ERROR ' +
      '(502 when unreachable). category marketing adds List-Unsubscribe (a signed link to POST /v1/unsubscribe/{token}) and ' +
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058), and honours marketing-only suppressions. ' +
      'Idempotency-Key: the same key from the same project within 24 hours answers the first 200 response again ' +
      '(with Idempotent-Replayed: true) and sends nothing, also when the requests arrive at once; the same key with a ' +
      'different body is 409 CONFLICT. A send that failed keeps no answer, so a retry with its key sends. ' +
      "A project holding its share of the replica's send slots (MAILER_SENDS_TOTAL / (projects sending + 1), at least 1, at most " +
      'MAILER_SENDS_PER_PROJECT, default 4), or a replica with all MAILER_SENDS_TOTAL (default 8) in use, answers 429 RATE_LIMITED with Retry-After.',
    security: KEYS,
    request: {
      headers: Joi.object({
        'Idempotency-Key': idempotencyKeySchema.description('Printable ASCII; remembered per project for 24 hours'),
      }),
      body: sendEmailSchema(MAX_RECIPIENTS),
    },
    responses: { 200: json('Sent (per recipient in recipients)', sentEmailResponse) },
    errors: [400, 401, 403, 404, 409, 429, 500, 502],
  },
  {
    method: 'get',
    path: '/emails/logs/{recipient_email}',
    operationId: 'getEmailsLogsByRecipientEmail',
    summary: 'Logs for one recipient, newest first',
    security: KEYS,
    request: {
      params: pathParam(
        'recipient_email',
        recipientSchema.extract('recipient'),
        'Recipient address (case-insensitive)',
      ),
      query: recipientPageSchema,
    },
    responses: { 200: json('Logs', recipientLogsResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/logs',
    operationId: 'getLogs',
    summary: 'Email logs of the project, newest first',
    security: KEYS,
    request: { query: listLogsSchema },
    responses: { 200: json('Logs', logListResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/stats',
    operationId: 'getStats',
    summary: "Counts of the project's emails by current status",
    security: KEYS,
    responses: { 200: json('Statistics', statsResponse) },
    errors: [401],
  },
  {
    method: 'get',
    path: '/stats/daily',
    operationId: 'getStatsDaily',
    summary: "Counts of the project's emails per UTC day sent and current status",
    description:
      'Whole UTC days from `from` to `to`, both included (default: the 30 days up to today; at most 366 days).',
    security: KEYS,
    request: { query: dailyStatsSchema },
    responses: { 200: json('Statistics per day', dailyStatsResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/templates',
    operationId: 'postTemplates',
    summary: 'Create a template',
    description: 'A template that does not compile is 400; a templateKey already used in the project is 409.',
    security: KEYS,
    request: { body: createTemplateSchema },
    responses: { 201: json('Created', templateResponse) },
    errors: [400, 401, 409],
  },
  {
    method: 'get',
    path: '/templates',
    operationId: 'getTemplates',
    summary: 'List templates, newest first',
    security: KEYS,
    request: { query: listTemplatesSchema },
    responses: { 200: json('Templates', templateListResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/templates/{template_id}',
    operationId: 'getTemplatesByTemplateId',
    summary: 'One template',
    security: KEYS,
    request: { params: templateId },
    responses: { 200: json('Template', templateResponse) },
    errors: [401, 404],
  },
  {
    method: 'put',
    path: '/templates/{template_id}',
    operationId: 'putTemplatesByTemplateId',
    summary: 'Change a template (any of its fields)',
    security: KEYS,
    request: { params: templateId, body: updateTemplateSchema },
    responses: { 200: json('Template', templateResponse) },
    errors: [400, 401, 404, 409],
  },
  {
    method: 'delete',
    path: '/templates/{template_id}',
    operationId: 'deleteTemplatesByTemplateId',
    summary: 'Delete a template',
    security: KEYS,
    request: { params: templateId },
    responses: { 204: { description: 'Deleted' } },
    errors: [401, 404],
  },
  {
    method: 'post',
    path: '/templates/{template_id}/preview',
    operationId: 'postTemplatesByTemplateIdPreview',
    summary: 'Render a template with data, without sending',
    security: KEYS,
    request: { params: templateId, body: previewSchema, bodyRequired: false },
    responses: { 200: json('Rendered', renderedResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/suppressions',
    operationId: 'getSuppressions',
    summary: 'The suppression list, newest first',
    description:
      "Hard bounces, complaints and unsubscribes reported by the vendors' event webhooks are added automatically " +
      '(Mailgun failed/permanent, complained, unsubscribed; SendGrid bounce except type blocked, spamreport, unsubscribe, ' +
      'group_unsubscribe). Bounces and complaints hold back all email; unsubscribes (and one-click unsubscribes) only ' +
      'marketing email. A later bounce or complaint widens a marketing-only entry to all.',
    security: KEYS,
    request: { query: listSuppressionsSchema },
    responses: { 200: json('Suppressions', suppressionListResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/suppressions',
    operationId: 'postSuppressions',
    summary: 'Add an address to the suppression list by hand',
    description: 'An address already suppressed keeps its entry (a marketing-only entry is widened when scope is all).',
    security: KEYS,
    request: { body: addSuppressionSchema },
    responses: { 201: json('Suppressed', suppressionResponse) },
    errors: [400, 401],
  },
  {
    method: 'delete',
    path: '/suppressions/{email}',
    operationId: 'deleteSuppressionsByEmail',
    summary: 'Remove an address from the suppression list',
    security: KEYS,
    request: {
      params: pathParam('email', suppressedEmailSchema.extract('email'), 'The address (case-insensitive)'),
    },
    responses: { 204: { description: 'Removed' } },
    errors: [400, 401, 404],
  },
  {
    method: 'get',
    path: '/unsubscribe/{token}',
    operationId: 'getUnsubscribeByToken',
    summary: 'The page behind a List-Unsubscribe link',
    description:
      'No keys. Shows a button that POSTs to the same URL; a GET never unsubscribes (mail scanners follow links).',
    security: [],
    request: { params: token },
    responses: { 200: { description: 'An HTML page' } },
    errors: [403],
  },
  {
    method: 'post',
    path: '/unsubscribe/{token}',
    operationId: 'postUnsubscribeByToken',
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      'No keys. The body (List-Unsubscribe=One-Click, form-encoded) is not needed: the token names the project and ' +
      "address and is an HMAC-SHA256 under that project's own secret. Adds the address to the project's suppression " +
      'list for marketing email (transactional email still goes out). A tampered, foreign or malformed token is 403. ' +
      'A body over 1 KB is 413 PAYLOAD_TOO_LARGE.',
    security: [],
    request: { params: token },
    responses: { 200: json('Unsubscribed', unsubscribedResponse) },
    errors: [403, 413],
  },
  {
    method: 'post',
    path: '/providers',
    operationId: 'postProviders',
    summary: 'Add an email provider',
    security: KEYS,
    request: { body: createProviderSchema },
    responses: { 201: json('Created', providerResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/providers',
    operationId: 'getProviders',
    summary: 'List providers (never their config)',
    security: KEYS,
    responses: { 200: json('Providers', providerListResponse) },
    errors: [401],
  },
  {
    method: 'patch',
    path: '/providers/{provider_id}',
    operationId: 'patchProvidersByProviderId',
    summary: 'Rename a provider, change its failover priority or make it the default',
    description:
      'Making one provider the default unsets the previous default in the same transaction; a default is never unset ' +
      'directly (make another one the default). The config is not changed here.',
    security: KEYS,
    request: { params: providerId, body: updateProviderSchema },
    responses: { 200: json('Provider', providerResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'post',
    path: '/providers/{provider_id}/test',
    operationId: 'postProvidersByProviderIdTest',
    summary: 'Send a test email through one provider',
    description: 'A vendor refusal is reported as success false with its message (and logged as failed).',
    security: KEYS,
    request: { params: providerId, body: testProviderSchema },
    responses: { 200: json('Result', providerTestResponse) },
    errors: [400, 401, 404],
  },
  {
    method: 'post',
    path: '/webhooks/{provider_id}',
    operationId: 'postWebhooksByProviderId',
    summary: "Delivery events from the provider's vendor",
    description:
      'No keys. Mailgun: JSON webhook {signature: {timestamp, token, signature}, event-data}, signature = hex HMAC-SHA256 of ' +
      'timestamp+token under config.webhookSigningKey; delivered -> delivered, permanent failed -> bounced, rejected -> failed. ' +
      'SendGrid: signed event webhook (array of events), ECDSA P-256 signature in X-Twilio-Email-Event-Webhook-Signature over ' +
      'X-Twilio-Email-Event-Webhook-Timestamp + raw body, checked with config.webhookPublicKey; delivered -> delivered, ' +
      'bounce -> bounced, dropped -> failed. A missing or wrong signature is 401 and changes nothing. ' +
      'Replays: the signed timestamp (Mailgun signature.timestamp, SendGrid timestamp header, unix seconds) must be ' +
      'within MAILER_WEBHOOK_TOLERANCE_SECONDS (default 300) of the server clock in either direction, else 401 ' +
      'UNAUTHORIZED. Mailgun: a token already received by this provider within its window is 401 UNAUTHORIZED. ' +
      'SendGrid: each sg_event_id is applied once per provider (remembered for 24 hours, the vendor redelivery ' +
      'period): a repeated event is accepted with 200 and changes nothing (not counted in updated); an event ' +
      'without sg_event_id is skipped. A refused request stores nothing. Suppression: Mailgun failed/permanent, ' +
      'complained and unsubscribed, and SendGrid bounce (not type blocked), spamreport, unsubscribe and ' +
      "group_unsubscribe put the recipient (event-data.recipient, email) on the project's suppression list. " +
      "SendGrid's signature is checked on the raw body before it is parsed; a body over 1 MB is 413 PAYLOAD_TOO_LARGE.",
    security: [],
    request: { params: providerId, rawBody: { oneOf: [{ type: 'object' }, { type: 'array' }] } },
    responses: { 200: json('Accepted', webhookResultResponse) },
    errors: [400, 401, 404, 413],
  },
];

const document = buildContractDocument({
  title: 'Mailer service',
  description:
    'Transactional email with Handlebars templates, per-project email vendors (Mailgun, SendGrid), logs, statistics and ' +
    'vendor delivery webhooks. All paths start with /v1. Outside production a project without a provider sends through ' +
    'a built-in outbox transport that stores the rendered email in its log instead of sending it.',
  operations,
  tags: [
    { name: 'emails', description: 'Sending e-mail, its log and statistics', paths: ['/emails', '/logs', '/stats'] },
    { name: 'templates', description: 'Handlebars templates and their previews', paths: ['/templates'] },
    { name: 'suppressions', description: 'Recipients the project no longer sends to', paths: ['/suppressions'] },
    {
      name: 'unsubscribe',
      description: 'The unsubscribe page a recipient reaches from an e-mail',
      paths: ['/unsubscribe'],
    },
    { name: 'providers', description: "The project's e-mail vendors", paths: ['/providers'] },
    { name: 'webhooks', description: "Vendors' delivery events", paths: ['/webhooks'] },
  ],
});

// The unsubscribe page is HTML, which the contract's JSON responses do not describe.
const paths = document.paths as Record<
  string,
  Record<
    string,
    { responses: Record<string, object>; requestBody?: { content: Record<string, { schema: JsonSchema }> } }
  >
>;
// A provider's config is the Mailgun or the SendGrid shape by `type` (Joi.when): a Mailgun config also
// fits the open SendGrid object, so "one of" would refuse it; and the config is always required.
const providerInput = paths['/providers'].post.requestBody!.content['application/json'].schema as {
  properties: Record<string, JsonSchema>;
  required: string[];
};
const { oneOf, ...config } = providerInput.properties.config as JsonSchema & { oneOf: JsonSchema[] };
providerInput.properties.config = {
  ...config,
  type: 'object',
  anyOf: oneOf,
  description: 'Stored encrypted, never returned',
};
providerInput.required = [...providerInput.required, 'config'];
paths['/unsubscribe/{token}'].get.responses['200'] = {
  description: 'An HTML page',
  content: { 'text/html': { schema: { type: 'string' } } },
};

export const openapi = document;
