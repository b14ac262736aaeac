import type { JsonSchema } from '@platform/tenancy';
import { metadataInput, nullableStr, str, succeeded } from './openapi.schemas';

const metadata = { type: 'object', additionalProperties: { type: 'string' } };

/** Customers, subscriptions, account status and webhook receipts. */
export const recordSchemas: Record<string, JsonSchema> = {
  CustomerInput: {
    type: 'object',
    properties: {
      email: { ...str, format: 'email' },
      name: str,
      description: str,
      phone: str,
      metadata: metadataInput,
    },
  },
  Customer: {
    type: 'object',
    description: "Stripe's customer shape; `created` is Stripe's Unix time, `createdAt` the same instant in ISO 8601",
    required: ['id', 'object', 'email', 'name', 'description', 'phone', 'metadata', 'created', 'createdAt'],
    properties: {
      id: str,
      object: { const: 'customer' },
      email: nullableStr,
      name: nullableStr,
      description: nullableStr,
      phone: nullableStr,
      metadata: { ...metadata, required: ['tenantId', 'projectId'] },
      created: { type: 'integer' },
      createdAt: { ...str, format: 'date-time' },
      livemode: { type: 'boolean' },
    },
  },
  CustomerList: {
    type: 'object',
    required: ['customers', 'has_more'],
    properties: {
      object: { const: 'list' },
      customers: { type: 'array', items: { $ref: '#/components/schemas/Customer' } },
      data: {
        type: 'array',
        items: { $ref: '#/components/schemas/Customer' },
        description: 'Same as customers (Stripe naming)',
      },
      has_more: { type: 'boolean' },
    },
  },
  DeletedCustomer: {
    type: 'object',
    required: ['id', 'deleted'],
    properties: { id: str, object: { const: 'customer' }, deleted: { const: true } },
  },
  Subscription: {
    type: 'object',
    required: [
      'id',
      'tenantId',
      'planId',
      'status',
      'currentPeriodEnd',
      'paySubscriptionId',
      'cancelAtPeriodEnd',
      'canceledAt',
      'plan',
    ],
    properties: {
      id: str,
      tenantId: str,
      projectId: str,
      environment: { enum: ['test', 'live'] },
      planId: { ...nullableStr, description: 'Stripe price id of the first item' },
      status: { ...str, description: "Stripe's subscription status" },
      currentPeriodEnd: { ...nullableStr, format: 'date-time' },
      paySubscriptionId: { ...str, description: 'Stripe subscription id' },
      customerId: str,
      customerEmail: nullableStr,
      cancelAtPeriodEnd: { type: 'boolean' },
      canceledAt: { ...nullableStr, format: 'date-time' },
      plan: { type: 'object', required: ['name'], properties: { id: nullableStr, name: nullableStr } },
      createdAt: { ...str, format: 'date-time' },
      updatedAt: { ...str, format: 'date-time' },
    },
  },
  AccountStatus: succeeded({
    configured: { type: 'boolean' },
    ready: { type: 'boolean', description: 'Charges and payouts enabled and the account not disabled' },
    account: {
      type: ['object', 'null'],
      required: [
        'id',
        'email',
        'country',
        'default_currency',
        'charges_enabled',
        'payouts_enabled',
        'details_submitted',
        'type',
      ],
      properties: {
        id: str,
        email: nullableStr,
        country: nullableStr,
        default_currency: nullableStr,
        charges_enabled: { type: 'boolean' },
        payouts_enabled: { type: 'boolean' },
        details_submitted: { type: 'boolean' },
        type: nullableStr,
      },
    },
    requirements: {
      type: 'object',
      required: ['currently_due', 'eventually_due', 'past_due', 'disabled_reason'],
      properties: {
        currently_due: { type: 'array', items: str },
        eventually_due: { type: 'array', items: str },
        past_due: { type: 'array', items: str },
        disabled_reason: nullableStr,
      },
    },
    issues: {
      type: 'array',
      items: str,
      description: 'What keeps the account from charging or paying out, in words',
    },
    environment: { enum: ['test', 'live'] },
  }),
  WebhookReceived: {
    type: 'object',
    required: ['received', 'duplicate'],
    properties: {
      received: { const: true },
      duplicate: { type: 'boolean', description: 'The event id was processed before; nothing changed' },
      id: str,
      type: str,
    },
  },
};
