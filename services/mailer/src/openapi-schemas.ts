import type { JsonSchema } from '@platform/tenancy';

const dateTime = { type: 'string', format: 'date-time' };
const nullableString = { type: ['string', 'null'] };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Component schemas of the Mailer's OpenAPI document. */
export const schemas: Record<string, JsonSchema> = {
  SentEmail: {
    type: 'object',
    required: ['messageId', 'status', 'to', 'sentAt'],
    properties: {
      messageId: { type: 'string', description: 'Id of the log entry of this send' },
      status: { type: 'string', enum: ['sent'] },
      to: { type: 'string', format: 'email' },
      sentAt: dateTime,
    },
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
      status: { type: 'string', enum: ['sent', 'delivered', 'bounced', 'failed'] },
      provider: { type: 'string', enum: ['mailgun', 'sendgrid', 'outbox'] },
      providerId: nullableString,
      vendorMessageId: nullableString,
      templateId: nullableString,
      source: { type: 'string', description: 'api, provider-test, auth.verify-email or auth.reset-password' },
      error: nullableString,
      html: { ...nullableString, description: 'Rendered html, kept only for the outbox transport' },
      text: { ...nullableString, description: 'Rendered text, kept only for the outbox transport' },
      sentAt: dateTime,
      updatedAt: dateTime,
    },
  },
  Stats: {
    type: 'object',
    required: ['total', 'sent', 'delivered', 'bounced', 'failed'],
    properties: Object.fromEntries(
      ['total', 'sent', 'delivered', 'bounced', 'failed'].map((k) => [k, { type: 'integer', minimum: 0 }]),
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
      createdAt: dateTime,
      updatedAt: dateTime,
    },
  },
  Template: {
    allOf: [
      ref('TemplateSummary'),
      { type: 'object', required: ['html', 'text'], properties: { html: { type: 'string' }, text: nullableString } },
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
    },
  },
  Rendered: {
    type: 'object',
    required: ['subject', 'html', 'text'],
    properties: { subject: { type: 'string' }, html: { type: 'string' }, text: nullableString },
  },
  Provider: {
    type: 'object',
    required: ['id', 'name', 'type', 'isDefault', 'createdAt'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string', enum: ['mailgun', 'sendgrid'] },
      isDefault: { type: 'boolean' },
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
};
