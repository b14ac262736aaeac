import { Joi } from '@platform/tenancy';
import { readEnv } from '@platform/runtime';

/** Settings of the Billing service; the only place that reads its environment. */
export interface BillingConfig {
  /** Stripe's API (a local stand-in in tests or staging); unset is Stripe's public endpoint. */
  stripeApiBase?: string;
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

const envSchema = Joi.object({
  STRIPE_API_BASE: Joi.string().uri(),
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

export function loadBillingConfig(env: NodeJS.ProcessEnv): BillingConfig {
  const value = readEnv(envSchema, env, 'billing');
  return {
    stripeApiBase: value.STRIPE_API_BASE,
    customerCreateLimit: value.BILLING_CUSTOMER_CREATE_LIMIT,
    customerQueryLimit: value.BILLING_CUSTOMER_QUERY_LIMIT,
    customerLimitWindowMs: value.BILLING_CUSTOMER_LIMIT_WINDOW_MS,
    stripeTimeoutMs: value.STRIPE_TIMEOUT_MS,
    stripeMaxNetworkRetries: value.STRIPE_MAX_NETWORK_RETRIES,
    stripeClientTtlMs: value.STRIPE_CLIENT_TTL_MS,
  };
}
