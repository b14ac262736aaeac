import type { JsonSchema } from '@platform/tenancy';

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
const metadata = { type: 'object', additionalProperties: { type: 'string' } };
const metadataInput = {
  type: 'object',
  maxProperties: 47,
  additionalProperties: { type: ['string', 'number', 'boolean'] },
  description: 'Stripe metadata. `tenantId` and `projectId` are set by the service and cannot be overridden.',
};

export const environmentParam = (fallback: 'test' | 'live') => ({
  name: 'environment',
  in: 'query',
  required: false,
  description: `Stripe mode whose keys and data are used (default \`${fallback}\`). Any other value is 400.`,
  schema: { type: 'string', enum: ['test', 'live'], default: fallback },
});

export const pathParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: str });

const configStatus = {
  type: 'object',
  required: ['environment', 'configured', 'webhookConfigured', 'webhookPath', 'updatedAt'],
  properties: {
    environment: { enum: ['test', 'live'] },
    configured: { type: 'boolean', description: 'A secret key is stored for this environment' },
    webhookConfigured: { type: 'boolean', description: 'A webhook signing secret is stored for this environment' },
    webhookPath: { ...str, description: 'Path (on this service) to register as the Stripe webhook endpoint' },
    updatedAt: { ...nullableStr, format: 'date-time' },
  },
};

export const schemas: Record<string, JsonSchema> = {
  StripeConfigInput: {
    type: 'object',
    required: ['secretKey'],
    properties: {
      environment: { enum: ['test', 'live'], description: 'Defaults to the `environment` query parameter, then `test`' },
      secretKey: { ...str, description: 'Stripe secret (or restricted) key; stored encrypted, never returned' },
      webhookSecret: { ...str, description: 'Stripe webhook signing secret (whsec_...); when left out, the stored one is kept' },
    },
  },
  StripeConfigStatus: configStatus,
  StripeConfig: {
    allOf: [
      configStatus,
      {
        type: 'object',
        required: ['success'],
        properties: { success: { const: true }, environments: { type: 'array', items: configStatus } },
      },
    ],
  },
  LineItem: {
    type: 'object',
    required: ['price', 'quantity'],
    properties: { price: { ...str, description: 'Stripe price id' }, quantity: { type: 'integer', minimum: 1 } },
  },
  CheckoutSessionInput: {
    type: 'object',
    required: ['line_items', 'mode', 'success_url', 'cancel_url'],
    properties: {
      line_items: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/LineItem' } },
      mode: { enum: ['payment', 'subscription', 'setup'] },
      success_url: { ...str, format: 'uri' },
      cancel_url: { ...str, format: 'uri' },
      customer_email: {
        ...str,
        format: 'email',
        description: "Email of the Stripe customer created for the signed-in user on first use; defaults to the user's email",
      },
      metadata: metadataInput,
      allow_promotion_codes: { type: 'boolean' },
      billing_address_collection: { enum: ['auto', 'required'] },
    },
  },
  CheckoutSessionCreated: {
    type: 'object',
    required: ['success', 'session'],
    properties: {
      success: { const: true },
      session: {
        type: 'object',
        required: ['id', 'url', 'customer', 'mode'],
        properties: { id: str, url: nullableStr, customer: str, mode: { enum: ['payment', 'subscription', 'setup'] } },
      },
    },
  },
  CheckoutSessionStatus: {
    type: 'object',
    required: ['session'],
    properties: {
      success: { const: true },
      session: {
        type: 'object',
        required: ['id', 'status', 'payment_status'],
        properties: {
          id: str,
          status: { ...nullableStr, description: 'open, complete or expired' },
          payment_status: { ...str, description: 'paid, unpaid or no_payment_required' },
          mode: str,
          customer: nullableStr,
          url: nullableStr,
        },
      },
    },
  },
  PaymentIntentInput: {
    type: 'object',
    required: ['amount', 'currency'],
    properties: {
      amount: { type: 'integer', minimum: 1, description: 'In the smallest currency unit' },
      currency: { ...str, pattern: '^[a-z]{3}$' },
      customer: { ...str, description: "A customer of this project (404 otherwise); defaults to the signed-in user's customer" },
      description: str,
      metadata: metadataInput,
      payment_method_types: { type: 'array', items: str },
      receipt_email: { ...str, format: 'email' },
      setup_future_usage: { enum: ['on_session', 'off_session'] },
    },
  },
  PaymentIntentCreated: {
    type: 'object',
    required: ['success', 'paymentIntent', 'client_secret', 'payment_intent_id', 'status'],
    properties: {
      success: { const: true },
      paymentIntent: {
        type: 'object',
        required: ['id', 'client_secret', 'status', 'amount', 'currency'],
        properties: { id: str, client_secret: nullableStr, status: str, amount: { type: 'integer' }, currency: str, customer: str },
      },
      client_secret: nullableStr,
      payment_intent_id: str,
      status: str,
    },
  },
  PaymentIntentStatus: {
    type: 'object',
    required: ['paymentIntent'],
    properties: {
      success: { const: true },
      paymentIntent: {
        type: 'object',
        required: ['id', 'status', 'amount', 'currency'],
        properties: { id: str, status: str, amount: { type: 'integer' }, currency: str },
      },
    },
  },
  PortalSessionInput: {
    type: 'object',
    required: ['return_url'],
    properties: {
      customer: { ...str, description: "A customer of this project (404 otherwise); defaults to the signed-in user's customer" },
      return_url: { ...str, format: 'uri' },
    },
  },
  PortalSessionCreated: {
    type: 'object',
    required: ['success', 'session'],
    properties: {
      success: { const: true },
      session: {
        type: 'object',
        required: ['id', 'url', 'customer', 'return_url'],
        properties: { id: str, url: str, customer: str, return_url: nullableStr },
      },
    },
  },
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
      data: { type: 'array', items: { $ref: '#/components/schemas/Customer' }, description: 'Same as customers (Stripe naming)' },
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
    required: ['id', 'tenantId', 'planId', 'status', 'currentPeriodEnd', 'paySubscriptionId', 'cancelAtPeriodEnd', 'canceledAt', 'plan'],
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
  AccountStatus: {
    type: 'object',
    required: ['configured', 'ready', 'account', 'requirements', 'issues', 'environment'],
    properties: {
      success: { const: true },
      configured: { type: 'boolean' },
      ready: { type: 'boolean', description: 'Charges and payouts enabled and the account not disabled' },
      account: {
        type: ['object', 'null'],
        required: ['id', 'email', 'country', 'default_currency', 'charges_enabled', 'payouts_enabled', 'details_submitted', 'type'],
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
      issues: { type: 'array', items: str, description: 'What keeps the account from charging or paying out, in words' },
      environment: { enum: ['test', 'live'] },
    },
  },
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
