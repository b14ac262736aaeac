import { buildOpenApiDocument, errorResponses, jsonBody, jsonResponse, KEYS } from '@platform/tenancy';
import { schemas } from './openapi-schemas';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const pathParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});
const pageParams = (defaultLimit: number) => [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: defaultLimit } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
];
const templateId = pathParam('template_id', 'Template id');

export const openapi = buildOpenApiDocument({
  title: 'Mailer service',
  description:
    'Transactional email with Handlebars templates, per-project email vendors (Mailgun, SendGrid), logs, statistics and ' +
    'vendor delivery webhooks. All paths start with /v1. Outside production a project without a provider sends through ' +
    'a built-in outbox transport that stores the rendered email in its log instead of sending it.',
  schemas,
  paths: {
    '/emails/send': {
      post: {
        summary: 'Send an email',
        description:
          'Either html (with optional text) or templateId (id or templateKey, with optional templateData and locale). subject is required ' +
          'unless the template gives it. `to` is one address or a list (MAILER_MAX_RECIPIENTS, default 50); each distinct ' +
          'recipient (case-insensitive) gets its own email and log. A recipient on the suppression list is not handed to any ' +
          'provider: its result and log say `suppressed` with the reason, and the other recipients still go out. ' +
          'Providers are tried in failover order (priority, then the default, then the oldest): a timeout, connection error, 5xx, ' +
          'refused credentials (401/403) or throttling (408/429) moves on to the next provider; any other 4xx (the message itself) ' +
          'does not. Every attempt is logged. A provider that failed MAILER_FAILOVER_FAILURES times in a row is skipped for ' +
          'MAILER_FAILOVER_COOLDOWN_SECONDS, then tried again (unless every provider is cooling down). No provider: 403 ' +
          'PROVIDER_NOT_CONFIGURED in production. When every recipient that was tried failed, the send is 500 VENDOR_ERROR ' +
          '(502 when unreachable). category marketing adds List-Unsubscribe (a signed link to POST /v1/unsubscribe/{token}) and ' +
          'List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058), and honours marketing-only suppressions. ' +
          'Idempotency-Key: the same key from the same project within 24 hours answers the first 200 response again ' +
          '(with Idempotent-Replayed: true) and sends nothing, also when the requests arrive at once; the same key with a ' +
          'different body is 409 CONFLICT. A send that failed keeps no answer, so a retry with its key sends. ' +
          'A project with MAILER_SENDS_PER_PROJECT (default 4) sends in flight on one replica, or a replica with MAILER_SENDS_TOTAL (default 8) sends of all projects in flight, answers 429 RATE_LIMITED with Retry-After.',
        security: KEYS,
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            schema: { type: 'string', minLength: 1, maxLength: 255 },
            description: 'Printable ASCII; remembered per project for 24 hours',
          },
        ],
        requestBody: jsonBody({
          type: 'object',
          required: ['to'],
          properties: {
            to: {
              oneOf: [
                { type: 'string', format: 'email' },
                { type: 'array', items: { type: 'string', format: 'email' }, minItems: 1, maxItems: 1000 },
              ],
            },
            category: { type: 'string', enum: ['transactional', 'marketing'], default: 'transactional' },
            locale: { type: 'string', description: 'Picks the template variant: exact, then language, then default' },
            subject: { type: 'string' },
            from: { type: 'string', format: 'email' },
            html: { type: 'string' },
            text: { type: 'string' },
            templateId: { type: 'string', description: 'Template id or templateKey' },
            templateData: { type: 'object' },
          },
        }),
        responses: {
          '200': jsonResponse('Sent (per recipient in recipients)', ref('SentEmail')),
          ...errorResponses(400, 401, 403, 404, 409, 429, 500, 502),
        },
      },
    },
    '/emails/logs/{recipient_email}': {
      get: {
        summary: 'Logs for one recipient, newest first',
        security: KEYS,
        parameters: [pathParam('recipient_email', 'Recipient address (case-insensitive)'), ...pageParams(50)],
        responses: {
          '200': jsonResponse('Logs', {
            type: 'object',
            required: ['logs', 'limit', 'offset'],
            properties: {
              logs: { type: 'array', items: ref('EmailLog') },
              limit: { type: 'integer' },
              offset: { type: 'integer' },
            },
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    '/logs': {
      get: {
        summary: 'Email logs of the project, newest first',
        security: KEYS,
        parameters: [
          ...pageParams(50),
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['sent', 'delivered', 'bounced', 'failed', 'suppressed'] },
          },
        ],
        responses: {
          '200': jsonResponse('Logs', {
            type: 'object',
            required: ['logs', 'total', 'limit', 'offset'],
            properties: {
              logs: { type: 'array', items: ref('EmailLog') },
              total: { type: 'integer' },
              limit: { type: 'integer' },
              offset: { type: 'integer' },
            },
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    '/stats': {
      get: {
        summary: "Counts of the project's emails by current status",
        security: KEYS,
        responses: { '200': jsonResponse('Statistics', ref('Stats')), ...errorResponses(401) },
      },
    },
    '/templates': {
      post: {
        summary: 'Create a template',
        description: 'A template that does not compile is 400; a templateKey already used in the project is 409.',
        security: KEYS,
        requestBody: jsonBody({ allOf: [ref('TemplateInput'), { required: ['name', 'subject', 'html'] }] }),
        responses: { '201': jsonResponse('Created', ref('Template')), ...errorResponses(400, 401, 409) },
      },
      get: {
        summary: 'List templates, newest first',
        security: KEYS,
        parameters: pageParams(100),
        responses: {
          '200': jsonResponse('Templates', {
            type: 'object',
            required: ['templates'],
            properties: {
              templates: { type: 'array', items: ref('TemplateSummary') },
              total: { type: 'integer' },
              limit: { type: 'integer' },
              offset: { type: 'integer' },
            },
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    '/templates/{template_id}': {
      get: {
        summary: 'One template',
        security: KEYS,
        parameters: [templateId],
        responses: { '200': jsonResponse('Template', ref('Template')), ...errorResponses(401, 404) },
      },
      put: {
        summary: 'Change a template (any of its fields)',
        security: KEYS,
        parameters: [templateId],
        requestBody: jsonBody({ allOf: [ref('TemplateInput'), { minProperties: 1 }] }),
        responses: { '200': jsonResponse('Template', ref('Template')), ...errorResponses(400, 401, 404, 409) },
      },
      delete: {
        summary: 'Delete a template',
        security: KEYS,
        parameters: [templateId],
        responses: { '204': { description: 'Deleted' }, ...errorResponses(401, 404) },
      },
    },
    '/templates/{template_id}/preview': {
      post: {
        summary: 'Render a template with data, without sending',
        security: KEYS,
        parameters: [templateId],
        requestBody: jsonBody(
          { type: 'object', properties: { data: { type: 'object' }, locale: { type: 'string' } } },
          false,
        ),
        responses: { '200': jsonResponse('Rendered', ref('Rendered')), ...errorResponses(400, 401, 404) },
      },
    },
    '/suppressions': {
      get: {
        summary: 'The suppression list, newest first',
        description:
          "Hard bounces, complaints and unsubscribes reported by the vendors' event webhooks are added automatically " +
          '(Mailgun failed/permanent, complained, unsubscribed; SendGrid bounce except type blocked, spamreport, unsubscribe, ' +
          'group_unsubscribe). Bounces and complaints hold back all email; unsubscribes (and one-click unsubscribes) only ' +
          'marketing email. A later bounce or complaint widens a marketing-only entry to all.',
        security: KEYS,
        parameters: [
          ...pageParams(50),
          {
            name: 'reason',
            in: 'query',
            schema: { type: 'string', enum: ['bounce', 'complaint', 'unsubscribe', 'manual'] },
          },
        ],
        responses: { '200': jsonResponse('Suppressions', ref('SuppressionList')), ...errorResponses(400, 401) },
      },
      post: {
        summary: 'Add an address to the suppression list by hand',
        description:
          'An address already suppressed keeps its entry (a marketing-only entry is widened when scope is all).',
        security: KEYS,
        requestBody: jsonBody({
          type: 'object',
          required: ['email'],
          properties: {
            email: { type: 'string', format: 'email' },
            reason: { type: 'string', enum: ['bounce', 'complaint', 'unsubscribe', 'manual'], default: 'manual' },
            scope: { type: 'string', enum: ['all', 'marketing'], default: 'all' },
          },
        }),
        responses: { '201': jsonResponse('Suppressed', ref('Suppression')), ...errorResponses(400, 401) },
      },
    },
    '/suppressions/{email}': {
      delete: {
        summary: 'Remove an address from the suppression list',
        security: KEYS,
        parameters: [pathParam('email', 'The address (case-insensitive)')],
        responses: { '204': { description: 'Removed' }, ...errorResponses(400, 401, 404) },
      },
    },
    '/unsubscribe/{token}': {
      get: {
        summary: 'The page behind a List-Unsubscribe link',
        description:
          'No keys. Shows a button that POSTs to the same URL; a GET never unsubscribes (mail scanners follow links).',
        parameters: [pathParam('token', "Signed with the project's own secret")],
        responses: {
          '200': { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
          ...errorResponses(403),
        },
      },
      post: {
        summary: 'One-click unsubscribe (RFC 8058)',
        description:
          'No keys. The body (List-Unsubscribe=One-Click, form-encoded) is not needed: the token names the project and ' +
          "address and is an HMAC-SHA256 under that project's own secret. Adds the address to the project's suppression " +
          'list for marketing email (transactional email still goes out). A tampered, foreign or malformed token is 403.',
        parameters: [pathParam('token', "Signed with the project's own secret")],
        responses: { '200': jsonResponse('Unsubscribed', ref('Unsubscribed')), ...errorResponses(403) },
      },
    },
    '/providers': {
      post: {
        summary: 'Add an email provider',
        security: KEYS,
        requestBody: jsonBody(ref('ProviderInput')),
        responses: { '201': jsonResponse('Created', ref('Provider')), ...errorResponses(400, 401) },
      },
      get: {
        summary: 'List providers (never their config)',
        security: KEYS,
        responses: {
          '200': jsonResponse('Providers', {
            type: 'object',
            required: ['providers'],
            properties: { providers: { type: 'array', items: ref('Provider') } },
          }),
          ...errorResponses(401),
        },
      },
    },
    '/providers/{provider_id}/test': {
      post: {
        summary: 'Send a test email through one provider',
        description: 'A vendor refusal is reported as success false with its message (and logged as failed).',
        security: KEYS,
        parameters: [pathParam('provider_id', 'Provider id')],
        requestBody: jsonBody({
          type: 'object',
          required: ['to'],
          properties: { to: { type: 'string', format: 'email' } },
        }),
        responses: { '200': jsonResponse('Result', ref('ProviderTest')), ...errorResponses(400, 401, 404) },
      },
    },
    '/webhooks/{provider_id}': {
      post: {
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
          "group_unsubscribe put the recipient (event-data.recipient, email) on the project's suppression list.",
        parameters: [pathParam('provider_id', 'Provider id')],
        requestBody: jsonBody({ oneOf: [{ type: 'object' }, { type: 'array' }] }),
        responses: { '200': jsonResponse('Accepted', ref('WebhookResult')), ...errorResponses(400, 401, 404) },
      },
    },
  },
});
