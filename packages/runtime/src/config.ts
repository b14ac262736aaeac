import Joi from 'joi';
import { settingsWithPublishedSecrets } from '@platform/directory';
import type { TrustProxy } from '@platform/http';
import { DEFAULT_REFUSAL_HOLD_LIMITS, type KeyCheckLimits, type RefusalHoldLimits } from '@platform/tenancy';
import { ConfigError, readEnv } from './read-env';

export { ConfigError };

/** Settings every service shares (RESOLUTIONS section 9); read from the environment once. */
export interface PlatformConfig {
  nodeEnv: string;
  production: boolean;
  port?: number;
  databaseUrl?: string;
  platformDatabaseUrl?: string;
  amqpUrl?: string;
  /** Prefix for the exchange and queues (several environments on one broker). */
  amqpNamespace: string;
  /** Broker deletes queues unused this long; only for throw-away environments. */
  amqpQueueExpiresMs?: number;
  redisUrl?: string;
  masterKey?: Buffer;
  jwtPrivateKey?: string;
  jwtPublicKey?: string;
  dataDir: string;
  embeddedPostgresPort: number;
  logLevel: string;
  keyCacheTtlMs: number;
  /** What bounds the key checks that miss the cache (failed checks per address, lookups at once). */
  keyChecks: KeyCheckLimits;
  /** How long the 429s of repeat offenders (failed key checks, budget refusals) are held, and how many at once. */
  refusalHolds: RefusalHoldLimits;
  bodyLimit: string;
  /**
   * TRUST_PROXY: which proxies' X-Forwarded-For is believed: none (false), one hop (true), a number
   * of hops, or the proxies' addresses and subnets (`loopback`, `10.0.0.0/8`, ...).
   */
  trustProxy: TrustProxy;
  /** What bounds each service's HTTP connections (the http package's `ConnectionLimits`). */
  connections: {
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    maxConnections: number;
    maxConnectionsPerAddress: number;
    checkIntervalMs: number;
  };
  /** Requests per project, per service, per window (RESOLUTIONS 2: limits are counted per project). */
  projectRateLimit: { limit: number; windowMs: number };
  /** Requests of one project in progress at once, per service process (429 beyond). */
  projectMaxInFlight: number;
  /** Outbound webhooks of every service: what one attempt may take, and the shared slots. */
  webhooks: { deadlineMs: number; maxResponseBytes: number; slots: number; projectSlots: number; slotRetryMs: number };
  /** On SIGTERM: how long /readyz answers 503 (balancers take the replica out) before the server stops accepting. */
  shutdownReadinessDelayMs: number;
  /** On SIGTERM: how long in-flight requests may take to finish before their connections are closed. */
  shutdownDrainMs: number;
}

const envSchema = Joi.object({
  NODE_ENV: Joi.string().default('development'),
  PORT: Joi.number().port(),
  DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  PLATFORM_DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  AMQP_URL: Joi.string().uri({ scheme: ['amqp', 'amqps'] }),
  AMQP_NAMESPACE: Joi.string()
    .allow('')
    .pattern(/^[A-Za-z0-9._-]*$/)
    .default(''),
  AMQP_QUEUE_EXPIRES_MS: Joi.number().integer().min(1000),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
  MASTER_KEY: Joi.string().base64(),
  JWT_PRIVATE_KEY: Joi.string(),
  JWT_PUBLIC_KEY: Joi.string(),
  DATA_DIR: Joi.string().default('.data'),
  EMBEDDED_PG_PORT: Joi.number().port().default(54329),
  TRUST_PROXY: Joi.alternatives(
    Joi.boolean(),
    Joi.number().integer().min(0).max(10),
    Joi.string().pattern(/^[A-Za-z0-9.:/,\s]+$/),
  ).default(false),
  LOG_LEVEL: Joi.string().valid('error', 'warn', 'info', 'http', 'verbose', 'debug', 'silent').default('info'),
  KEY_CACHE_TTL_MS: Joi.number().integer().min(0).max(60_000).default(30_000),
  KEY_FAILURE_LIMIT: Joi.number().integer().min(1).default(30),
  KEY_FAILURE_WINDOW_MS: Joi.number().integer().min(1000).default(60_000),
  KEY_LOOKUP_CONCURRENCY: Joi.number().integer().min(1).default(2),
  KEY_LOOKUP_QUEUE: Joi.number().integer().min(0).default(100),
  KEY_UNKNOWN_CACHE_SIZE: Joi.number().integer().min(1).default(10_000),
  REFUSAL_HOLD_MS: Joi.number().integer().min(0).max(60_000).default(DEFAULT_REFUSAL_HOLD_LIMITS.maxHoldMs),
  REFUSAL_HOLDS_PER_OFFENDER: Joi.number().integer().min(0).default(DEFAULT_REFUSAL_HOLD_LIMITS.perOffender),
  REFUSAL_HOLDS_TOTAL: Joi.number().integer().min(0).default(DEFAULT_REFUSAL_HOLD_LIMITS.total),
  BODY_LIMIT: Joi.string().default('1mb'),
  HTTP_HEADERS_TIMEOUT_MS: Joi.number().integer().min(100).max(300_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: Joi.number().integer().min(100).max(3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Joi.number().integer().min(100).max(3_600_000).default(65_000),
  HTTP_MAX_CONNECTIONS: Joi.number().integer().min(1).default(4_096),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: Joi.number().integer().min(1).default(128),
  HTTP_DEADLINE_CHECK_MS: Joi.number().integer().min(10).max(30_000).default(1_000),
  SHUTDOWN_READINESS_DELAY_MS: Joi.number().integer().min(0).max(60_000).default(2_000),
  SHUTDOWN_DRAIN_MS: Joi.number().integer().min(0).max(300_000).default(10_000),
  PROJECT_RATE_LIMIT: Joi.number().integer().min(1).default(60_000),
  PROJECT_RATE_LIMIT_WINDOW_MS: Joi.number().integer().min(1000).default(60_000),
  PROJECT_MAX_IN_FLIGHT: Joi.number().integer().min(1).default(64),
  WEBHOOK_DEADLINE_MS: Joi.number().integer().min(100).max(300_000).default(15_000),
  WEBHOOK_MAX_RESPONSE_BYTES: Joi.number().integer().min(0).default(65_536),
  WEBHOOK_SLOTS: Joi.number().integer().min(1).max(1000).default(16),
  WEBHOOK_PROJECT_SLOTS: Joi.number().integer().min(1).max(1000).default(4),
  WEBHOOK_SLOT_RETRY_MS: Joi.number().integer().min(10).default(1_000),
}).unknown(true);

// `true` stays one hop, as before: Express's own `true` would believe every hop a client wrote.
function trustProxyOf(value: boolean | number | string): TrustProxy {
  if (value === true) return 1;
  if (value === false || value === 0) return false;
  if (typeof value === 'number') return value;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

const pem = (value?: string) => value?.replace(/\\n/g, '\n');

export function loadPlatformConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const value = readEnv(envSchema, env, 'platform');
  const masterKey = value.MASTER_KEY ? Buffer.from(value.MASTER_KEY, 'base64') : undefined;
  if (masterKey && masterKey.length !== 32) throw new ConfigError('MASTER_KEY must be 32 bytes, base64-encoded');
  return {
    nodeEnv: value.NODE_ENV,
    production: value.NODE_ENV === 'production',
    port: value.PORT,
    databaseUrl: value.DATABASE_URL,
    platformDatabaseUrl: value.PLATFORM_DATABASE_URL,
    amqpUrl: value.AMQP_URL,
    amqpNamespace: value.AMQP_NAMESPACE,
    amqpQueueExpiresMs: value.AMQP_QUEUE_EXPIRES_MS,
    redisUrl: value.REDIS_URL,
    masterKey,
    jwtPrivateKey: pem(value.JWT_PRIVATE_KEY),
    jwtPublicKey: pem(value.JWT_PUBLIC_KEY),
    dataDir: value.DATA_DIR,
    embeddedPostgresPort: value.EMBEDDED_PG_PORT,
    logLevel: value.LOG_LEVEL,
    keyCacheTtlMs: value.KEY_CACHE_TTL_MS,
    keyChecks: {
      failuresPerAddress: value.KEY_FAILURE_LIMIT,
      failureWindowMs: value.KEY_FAILURE_WINDOW_MS,
      lookupConcurrency: value.KEY_LOOKUP_CONCURRENCY,
      lookupQueue: value.KEY_LOOKUP_QUEUE,
      unknownKeysCached: value.KEY_UNKNOWN_CACHE_SIZE,
    },
    refusalHolds: {
      maxHoldMs: value.REFUSAL_HOLD_MS,
      perOffender: value.REFUSAL_HOLDS_PER_OFFENDER,
      total: value.REFUSAL_HOLDS_TOTAL,
    },
    bodyLimit: value.BODY_LIMIT,
    trustProxy: trustProxyOf(value.TRUST_PROXY),
    connections: {
      headersTimeoutMs: value.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: value.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: value.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: value.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: value.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      checkIntervalMs: value.HTTP_DEADLINE_CHECK_MS,
    },
    projectRateLimit: { limit: value.PROJECT_RATE_LIMIT, windowMs: value.PROJECT_RATE_LIMIT_WINDOW_MS },
    projectMaxInFlight: value.PROJECT_MAX_IN_FLIGHT,
    webhooks: {
      deadlineMs: value.WEBHOOK_DEADLINE_MS,
      maxResponseBytes: value.WEBHOOK_MAX_RESPONSE_BYTES,
      slots: value.WEBHOOK_SLOTS,
      projectSlots: Math.min(value.WEBHOOK_PROJECT_SLOTS, value.WEBHOOK_SLOTS),
      slotRetryMs: value.WEBHOOK_SLOT_RETRY_MS,
    },
    shutdownReadinessDelayMs: value.SHUTDOWN_READINESS_DELAY_MS,
    shutdownDrainMs: value.SHUTDOWN_DRAIN_MS,
  };
}

/** In production every secret must come from the environment; nothing falls back to a default. */
export function assertProductionSecrets(config: PlatformConfig, needs: { jwtPrivateKey?: boolean } = {}): void {
  if (!config.production) return;
  const missing = [
    ['DATABASE_URL', config.databaseUrl],
    ['PLATFORM_DATABASE_URL', config.platformDatabaseUrl],
    ['AMQP_URL', config.amqpUrl],
    ['MASTER_KEY', config.masterKey],
    ['JWT_PUBLIC_KEY', config.jwtPublicKey],
    ...(needs.jwtPrivateKey ? [['JWT_PRIVATE_KEY', config.jwtPrivateKey]] : []),
  ]
    .filter(([, v]) => !v)
    .map(([name]) => name);
  if (missing.length) throw new ConfigError(`Refusing to start in production without: ${missing.join(', ')}`);
  const published = settingsWithPublishedSecrets(config);
  if (published.length)
    throw new ConfigError(
      `Refusing to start in production with sample secrets published in the repository: ${published.join(', ')}. ` +
        'Generate real ones: `sh infra/compose/generate-env.sh > .env` for docker compose, or the commands in ' +
        'docs/deployment.md for Kubernetes.',
    );
}
