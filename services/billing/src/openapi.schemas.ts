import type { JsonSchema } from '@platform/tenancy';

export const str = { type: 'string' };
export const nullableStr = { type: ['string', 'null'] };
export const metadataInput = {
  type: 'object',
  maxProperties: 47,
  additionalProperties: { type: ['string', 'number', 'boolean'] },
  description: 'Stripe metadata. `tenantId` and `projectId` are set by the service and cannot be overridden.',
};

/** A successful answer: `success: true` plus the given fields (all of them required). */
export const succeeded = (properties: Record<string, JsonSchema>, optional: Record<string, JsonSchema> = {}) => ({
  type: 'object',
  required: ['success', ...Object.keys(properties)],
  properties: { success: { const: true }, ...properties, ...optional },
});

export const environmentParam = (fallback: 'test' | 'live') => ({
  name: 'environment',
  in: 'query',
  required: false,
  description: `Stripe mode whose keys and data are used (default \`${fallback}\`). Any other value is 400.`,
  schema: { type: 'string', enum: ['test', 'live'], default: fallback },
});

export const pathParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: str,
});

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

/** Provider setup, checkout, payment intents and portal. */
export const paymentSchemas: Record<string, JsonSchema> = {
  StripeConfigInput: {
    type: 'object',
    required: ['secretKey'],
    properties: {
      environment: {
        enum: ['test', 'live'],
        description: 'Defaults to the `environment` query parameter, then `test`',
      },
      secretKey: { ...str, description: 'Stripe secret (or restricted) key; stored encrypted, never returned' },
      webhookSecret: {
        ...str,
        description: 'Stripe webhook signing secret (whsec_...); when left out, the stored one is kept',
      },
    },
  },
  StripeConfigStatus: configStatus,
  StripeConfig: {
    allOf: [configStatus, succeeded({}, { environments: { type: 'array', items: configStatus } })],
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
        description:
          "Email of the Stripe customer created for the signed-in user on first use; defaults to the user's email",
      },
      metadata: metadataInput,
      allow_promotion_codes: { type: 'boolean' },
      billing_address_collection: { enum: ['auto', 'required'] },
    },
  },
  CheckoutSessionCreated: succeeded({
    session: {
      type: 'object',
      required: ['id', 'url', 'customer', 'mode'],
      properties: { id: str, url: nullableStr, customer: str, mode: { enum: ['payment', 'subscription', 'setup'] } },
    },
  }),
  CheckoutSessionStatus: succeeded({
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
  }),
  PaymentIntentInput: {
    type: 'object',
    required: ['amount', 'currency'],
    properties: {
      amount: { type: 'integer', minimum: 1, description: 'In the smallest currency unit' },
      currency: { ...str, pattern: '^[a-z]{3}$' },
      customer: {
        ...str,
        description: "The signed-in user's own customer (404 for any other); the default",
      },
      description: str,
      metadata: metadataInput,
      payment_method_types: { type: 'array', items: str },
      receipt_email: { ...str, format: 'email' },
      setup_future_usage: { enum: ['on_session', 'off_session'] },
    },
  },
  PaymentIntentCreated: succeeded({
    paymentIntent: {
      type: 'object',
      required: ['id', 'client_secret', 'status', 'amount', 'currency'],
      properties: {
        id: str,
        client_secret: nullableStr,
        status: str,
        amount: { type: 'integer' },
        currency: str,
        customer: str,
      },
    },
    client_secret: nullableStr,
    payment_intent_id: str,
    status: str,
  }),
  PaymentIntentStatus: succeeded({
    paymentIntent: {
      type: 'object',
      required: ['id', 'status', 'amount', 'currency'],
      properties: { id: str, status: str, amount: { type: 'integer' }, currency: str },
    },
  }),
  PortalSessionInput: {
    type: 'object',
    required: ['return_url'],
    properties: {
      customer: {
        ...str,
        description: "The signed-in user's own customer (404 for any other); the default",
      },
      return_url: { ...str, format: 'uri' },
    },
  },
  PortalSessionCreated: succeeded({
    session: {
      type: 'object',
      required: ['id', 'url', 'customer', 'return_url'],
      properties: { id: str, url: str, customer: str, return_url: nullableStr },
    },
  }),
};
