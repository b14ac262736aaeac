import { Joi } from '@platform/tenancy';

/** Settings of the Billing service alone; the shared ones (STRIPE_API_BASE, ...) are in PlatformConfig. */
export interface BillingConfig {
  /** Customer creates per project and environment per window (SPEC limits: 1,000 an hour). */
  customerCreateLimit: number;
  /** Customer reads, updates and deletes per project and environment per window (5,000 an hour). */
  customerQueryLimit: number;
  customerLimitWindowMs: number;
  stripeTimeoutMs: number;
  stripeMaxNetworkRetries: number;
  /** How long a project's Stripe client (or the fact that it has none) is reused before re-reading its keys. */
  stripeClientTtlMs: number;
}

const schema = Joi.object({
  BILLING_CUSTOMER_CREATE_LIMIT: Joi.number().integer().min(1).default(1_000),
  BILLING_CUSTOMER_QUERY_LIMIT: Joi.number().integer().min(1).default(5_000),
  BILLING_CUSTOMER_LIMIT_WINDOW_MS: Joi.number()
    .integer()
    .min(1_000)
    .default(60 * 60 * 1000),
  STRIPE_TIMEOUT_MS: Joi.number().integer().min(100).default(20_000),
  STRIPE_MAX_NETWORK_RETRIES: Joi.number().integer().min(0).max(5).default(1),
  STRIPE_CLIENT_TTL_MS: Joi.number().integer().min(0).default(60_000),
}).unknown(true);

/** Reads the Billing settings once; the only place of this service that looks at process.env. */
export function loadBillingConfig(env: NodeJS.ProcessEnv = process.env): BillingConfig {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new Error(`Invalid billing configuration: ${error.message}`);
  return {
    customerCreateLimit: value.BILLING_CUSTOMER_CREATE_LIMIT,
    customerQueryLimit: value.BILLING_CUSTOMER_QUERY_LIMIT,
    customerLimitWindowMs: value.BILLING_CUSTOMER_LIMIT_WINDOW_MS,
    stripeTimeoutMs: value.STRIPE_TIMEOUT_MS,
    stripeMaxNetworkRetries: value.STRIPE_MAX_NETWORK_RETRIES,
    stripeClientTtlMs: value.STRIPE_CLIENT_TTL_MS,
  };
}
