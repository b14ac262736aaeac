import type { JsonSchema } from '@platform/tenancy';

const dateTime = { type: 'string', format: 'date-time' };
const nullableString = { type: ['string', 'null'] };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const suppressionReason = { type: 'string', enum: ['bounce', 'complaint', 'unsubscribe', 'manual'] };

/** Component schemas of the Mailer's OpenAPI document. */
export const schemas: Record<string, JsonSchema> = {
  SentEmail: {
    type: 'object',
    description:
      'The top-level fields describe the first recipient (the whole answer for a single `to`); `recipients` has one entry per distinct recipient.',
    required: ['messageId', 'status', 'to', 'sentAt', 'recipients'],
    properties: {
      messageId: { type: 'string', description: 'Id of the log entry of this send (first recipient)' },
      status: { type: 'string', enum: ['sent', 'failed', 'suppressed'] },
      to: { type: 'string', format: 'email' },
      sentAt: dateTime,
      reason: { ...suppressionReason, description: 'Why a suppressed recipient was not sent to' },
      recipients: { type: 'array', items: ref('RecipientResult') },
    },
  },
  RecipientResult: {
    type: 'object',
    required: ['to', 'messageId', 'status', 'providerId'],
    properties: {
      to: { type: 'string', format: 'email' },
      messageId: { type: 'string', description: "Id of this recipient's log entry" },
      status: { type: 'string', enum: ['sent', 'failed', 'suppressed'] },
      providerId: {
        ...nullableString,
        description: 'The provider that delivered (or was tried last); null when suppressed or outbox',
      },
      reason: { ...suppressionReason, description: 'Present when suppressed' },
      error: { type: 'string', description: 'Present when every provider tried failed for this recipient' },
    },
  },
  Suppression: {
    type: 'object',
    required: ['email', 'scope', 'reason', 'providerEvent', 'providerId', 'createdAt'],
    properties: {
      email: { type: 'string', description: 'Lowercased; addresses compare case-insensitively' },
      scope: {
        type: 'string',
        enum: ['all', 'marketing'],
        description: 'all: no email at all; marketing: only emails sent with category marketing are held back',
      },
      reason: suppressionReason,
      providerEvent: {
        ...nullableString,
        description: 'The vendor event that added it, e.g. mailgun:complained or sendgrid:bounce',
      },
      providerId: nullableString,
      createdAt: dateTime,
    },
  },
  TemplateContent: {
    type: 'object',
    required: ['subject', 'html'],
    properties: {
      subject: { type: 'string', minLength: 1, maxLength: 998 },
      html: { type: 'string', minLength: 1 },
      text: nullableString,
    },
  },
  TemplateVariants: {
    type: 'object',
    description:
      "Content per locale (BCP 47 tag such as pt-BR, stored in canonical case); the template's own subject/html/text are the default. " +
      'A send with locale uses the exact locale, else one of the same language (the bare language first), else the default. At most 50.',
    propertyNames: { pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$' },
    additionalProperties: ref('TemplateContent'),
  },
  EmailLog: {
    type: 'object',
    required: [
      'id',
      'messageId',
      'to',
      'from',
      'subject',
      'status',
      'provider',
      'providerId',
      'vendorMessageId',
      'templateId',
      'source',
      'error',
      'category',
      'suppressionReason',
      'html',
      'text',
      'sentAt',
      'updatedAt',
    ],
    properties: {
      id: { type: 'string' },
      messageId: { type: 'string', description: 'Same as id; the messageId that send returned' },
      to: { type: 'string' },
      from: { type: 'string' },
      subject: { type: 'string' },
      status: { type: 'string', enum: ['sent', 'delivered', 'bounced', 'failed', 'suppressed'] },
      provider: {
        type: 'string',
        enum: ['mailgun', 'sendgrid', 'outbox', 'none'],
        description: 'none: suppressed, no provider was asked',
      },
      providerId: nullableString,
      vendorMessageId: nullableString,
      templateId: nullableString,
      source: { type: 'string', description: 'api, provider-test, auth.verify-email or auth.reset-password' },
      error: nullableString,
      category: { type: 'string', enum: ['transactional', 'marketing'] },
      suppressionReason: { ...nullableString, description: 'Why a suppressed email was not sent' },
      html: { ...nullableString, description: 'Rendered html, kept only for the outbox transport' },
      text: { ...nullableString, description: 'Rendered text, kept only for the outbox transport' },
      sentAt: dateTime,
      updatedAt: dateTime,
    },
  },
  Stats: {
    type: 'object',
    required: ['total', 'sent', 'delivered', 'bounced', 'failed', 'suppressed'],
    properties: Object.fromEntries(
      ['total', 'sent', 'delivered', 'bounced', 'failed', 'suppressed'].map((k) => [
        k,
        { type: 'integer', minimum: 0 },
      ]),
    ),
  },
  TemplateSummary: {
    type: 'object',
    required: ['id', 'name', 'templateKey', 'subject', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      templateKey: nullableString,
      subject: { type: 'string' },
      locales: { type: 'array', items: { type: 'string' }, description: 'Locales with their own variant' },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  Template: {
    allOf: [
      ref('TemplateSummary'),
      {
        type: 'object',
        required: ['html', 'text', 'variants'],
        properties: { html: { type: 'string' }, text: nullableString, variants: ref('TemplateVariants') },
      },
    ],
  },
  TemplateInput: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200 },
      templateKey: {
        type: ['string', 'null'],
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$',
        description: 'Unique per project',
      },
      subject: { type: 'string', description: 'Handlebars, not HTML-escaped' },
      html: { type: 'string', description: 'Handlebars, HTML-escaped' },
      text: { type: ['string', 'null'], description: 'Handlebars, not HTML-escaped' },
      variants: { ...ref('TemplateVariants'), description: 'Replaces all variants when given' },
    },
  },
  Rendered: {
    type: 'object',
    required: ['subject', 'html', 'text'],
    properties: { subject: { type: 'string' }, html: { type: 'string' }, text: nullableString },
  },
  Provider: {
    type: 'object',
    required: ['id', 'name', 'type', 'isDefault', 'priority', 'createdAt'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string', enum: ['mailgun', 'sendgrid'] },
      isDefault: { type: 'boolean' },
      priority: { type: 'integer', description: 'Failover order: lower first' },
      createdAt: dateTime,
    },
  },
  ProviderInput: {
    type: 'object',
    required: ['name', 'type', 'config'],
    properties: {
      name: { type: 'string' },
      type: {
        type: 'string',
        enum: ['mailgun', 'sendgrid', 'mail_vendor_a', 'mail_vendor_b'],
        description: 'mail_vendor_a = mailgun, mail_vendor_b = sendgrid',
      },
      isDefault: {
        type: 'boolean',
        description: 'The first provider of a project is always the default; a new default unsets the old one',
      },
      priority: {
        type: 'integer',
        minimum: 0,
        maximum: 1000,
        default: 100,
        description:
          'Failover order: a send tries providers by priority (lower first; on equal priority the default, then the oldest)',
      },
      config: {
        type: 'object',
        required: ['apiKey'],
        description: 'Stored encrypted, never returned',
        properties: {
          apiKey: { type: 'string' },
          domain: { type: 'string', description: 'mailgun: required sending domain' },
          region: { type: 'string', enum: ['us', 'eu'], description: 'mailgun only' },
          fromEmail: { type: 'string', format: 'email' },
          webhookSigningKey: {
            type: 'string',
            description: 'mailgun: HTTP webhook signing key, needed for delivery webhooks',
          },
          webhookPublicKey: {
            type: 'string',
            description:
              'sendgrid: signed event webhook verification key (base64 DER or PEM), needed for delivery webhooks',
          },
        },
      },
    },
  },
  ProviderTest: {
    type: 'object',
    required: ['success', 'messageId', 'message'],
    properties: { success: { type: 'boolean' }, messageId: nullableString, message: { type: 'string' } },
  },
  WebhookResult: {
    type: 'object',
    required: ['received', 'updated'],
    properties: {
      received: { const: true },
      updated: { type: 'integer', minimum: 0, description: 'How many logs changed status' },
    },
  },
  SuppressionList: {
    type: 'object',
    required: ['suppressions', 'total', 'limit', 'offset'],
    properties: {
      suppressions: { type: 'array', items: ref('Suppression') },
      total: { type: 'integer' },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
    },
  },
  Unsubscribed: {
    type: 'object',
    required: ['unsubscribed', 'email'],
    properties: { unsubscribed: { const: true }, email: { type: 'string' } },
  },
};
