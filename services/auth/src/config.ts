import { Joi } from '@platform/tenancy';
import { readEnv } from '@platform/runtime';

/** Settings of the Authentication service alone; the only place that reads them from the environment. */
export interface AuthConfig {
  /**
   * bcrypt work factor. 10 (the default) is OWASP's floor for bcrypt: slow enough that a stolen
   * hash table is expensive to crack (docs/performance.md has the cost per hash and the login
   * rate it allows). Every +1 doubles the cost, so raise it only with the hardware. Tests use 4
   * (bcrypt's minimum) to stay fast.
   */
  bcryptCost: number;
  /** Base of the links in emails when the project sets no `appUrl`. */
  appUrl: string;
  /**
   * The least time forgot-password takes to answer, whether or not the email has an account;
   * it must stay well above the time a real reset takes (a token and an outbox event committed).
   */
  forgotPasswordMinMs: number;
  /** Days a security event stays in the audit trail before the prune job removes it. */
  eventRetentionDays: number;
  /** Anonymous users who never signed up are deleted this long after they were created. */
  anonymousMaxAgeMs: number;
  anonymousPruneIntervalMs: number;
  oidc: {
    /** This service as browsers reach it: the providers send them back to `<publicUrl>/v1/callback`. */
    publicUrl: string;
    /** The whole of one call to an issuer (discovery, JWKS, token exchange), the answer included. */
    timeoutMs: number;
    /** Largest answer read from an issuer. */
    maxResponseBytes: number;
    /** Calls to issuers one project may have in flight in this process. */
    slotsPerProject: number;
    /** Hosts that may resolve to private addresses (tests and private deployments only). */
    allowedHosts: string[];
  };
  rateLimit: {
    windowMs: number;
    /** Requests per window from one client IP, per endpoint. */
    perIp: number;
    /** Requests per window naming one email (in one project), per endpoint. */
    perEmail: number;
  };
}

interface AuthEnv {
  BCRYPT_COST: number;
  APP_URL: string;
  AUTH_FORGOT_PASSWORD_MIN_MS: number;
  AUTH_RATE_LIMIT_WINDOW_MS: number;
  AUTH_RATE_LIMIT_PER_IP: number;
  AUTH_RATE_LIMIT_PER_EMAIL: number;
  AUTH_EVENT_RETENTION_DAYS: number;
  AUTH_ANONYMOUS_MAX_AGE_DAYS: number;
  AUTH_ANONYMOUS_PRUNE_INTERVAL_MS: number;
  AUTH_PUBLIC_URL: string;
  AUTH_OIDC_TIMEOUT_MS: number;
  AUTH_OIDC_MAX_RESPONSE_BYTES: number;
  AUTH_OIDC_SLOTS_PER_PROJECT: number;
  AUTH_OIDC_ALLOWED_HOSTS: string;
}

const schema = Joi.object<AuthEnv>({
  BCRYPT_COST: Joi.number().integer().min(4).max(15).default(10),
  APP_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://localhost:3000'),
  AUTH_FORGOT_PASSWORD_MIN_MS: Joi.number().integer().min(0).max(10_000).default(500),
  AUTH_RATE_LIMIT_WINDOW_MS: Joi.number()
    .integer()
    .min(1_000)
    .default(15 * 60_000),
  AUTH_RATE_LIMIT_PER_IP: Joi.number().integer().min(1).default(300),
  AUTH_RATE_LIMIT_PER_EMAIL: Joi.number().integer().min(1).default(10),
  AUTH_EVENT_RETENTION_DAYS: Joi.number().integer().min(1).max(3650).default(90),
  AUTH_ANONYMOUS_MAX_AGE_DAYS: Joi.number().min(0.0001).max(3650).default(30),
  AUTH_ANONYMOUS_PRUNE_INTERVAL_MS: Joi.number().integer().min(1_000).default(3_600_000),
  AUTH_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://localhost:4001'),
  AUTH_OIDC_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(5_000),
  AUTH_OIDC_MAX_RESPONSE_BYTES: Joi.number().integer().min(1_024).default(1_048_576),
  AUTH_OIDC_SLOTS_PER_PROJECT: Joi.number().integer().min(1).default(8),
  AUTH_OIDC_ALLOWED_HOSTS: Joi.string().allow('').default(''),
}).unknown(true);

export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const value = readEnv(schema, env, 'auth');
  return {
    bcryptCost: value.BCRYPT_COST,
    appUrl: value.APP_URL.replace(/\/+$/, ''),
    forgotPasswordMinMs: value.AUTH_FORGOT_PASSWORD_MIN_MS,
    eventRetentionDays: value.AUTH_EVENT_RETENTION_DAYS,
    anonymousMaxAgeMs: Math.round(value.AUTH_ANONYMOUS_MAX_AGE_DAYS * 24 * 3600_000),
    anonymousPruneIntervalMs: value.AUTH_ANONYMOUS_PRUNE_INTERVAL_MS,
    oidc: {
      publicUrl: value.AUTH_PUBLIC_URL.replace(/\/+$/, ''),
      timeoutMs: value.AUTH_OIDC_TIMEOUT_MS,
      maxResponseBytes: value.AUTH_OIDC_MAX_RESPONSE_BYTES,
      slotsPerProject: value.AUTH_OIDC_SLOTS_PER_PROJECT,
      allowedHosts: value.AUTH_OIDC_ALLOWED_HOSTS.split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    },
    rateLimit: {
      windowMs: value.AUTH_RATE_LIMIT_WINDOW_MS,
      perIp: value.AUTH_RATE_LIMIT_PER_IP,
      perEmail: value.AUTH_RATE_LIMIT_PER_EMAIL,
    },
  };
}
