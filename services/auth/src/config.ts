import { Joi } from '@platform/tenancy';
import { ConfigError } from '@platform/runtime';

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
}).unknown(true);

export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const result = schema.validate(env, { abortEarly: false, convert: true });
  if (result.error) {
    throw new ConfigError(`Invalid auth configuration: ${result.error.details.map((d) => d.message).join('; ')}`);
  }
  const value = result.value;
  return {
    bcryptCost: value.BCRYPT_COST,
    appUrl: value.APP_URL.replace(/\/+$/, ''),
    forgotPasswordMinMs: value.AUTH_FORGOT_PASSWORD_MIN_MS,
    eventRetentionDays: value.AUTH_EVENT_RETENTION_DAYS,
    rateLimit: {
      windowMs: value.AUTH_RATE_LIMIT_WINDOW_MS,
      perIp: value.AUTH_RATE_LIMIT_PER_IP,
      perEmail: value.AUTH_RATE_LIMIT_PER_EMAIL,
    },
  };
}
