import { Joi } from '@platform/tenancy';
import { ConfigError, readEnv } from '@platform/runtime';
import { parseRetryDelays } from '@platform/webhooks';

/** Settings of the LLM service; the only place that reads process.env for it. */
export type LlmRole = 'all' | 'api' | 'worker';

export interface LlmConfig {
  /**
   * What this process runs beside its HTTP server (which always serves probes and metrics):
   * `all` the batch worker and the webhook deliverer, `api` the webhook deliverer only (batch
   * items are left to worker processes), `worker` the batch worker only.
   */
  role: LlmRole;
  /** Longest wait for one vendor call, in ms. */
  vendorTimeoutMs: number;
  /** SDK retries of a failed vendor call (kept small: the caller is waiting). */
  vendorMaxRetries: number;
  /** max_tokens sent to Anthropic when the request names none (Anthropic requires one). */
  defaultMaxTokens: number;
  /** How long a project's SDK client is reused before its key is read again (other replicas' upserts). */
  clientCacheTtlMs: number;
  /** Completion logs are written in small groups; the longest a log waits. */
  logFlushMs: number;
  /** Completion logs kept while the database is away; beyond it the oldest are dropped (and counted). */
  logMaxBuffered: number;
  /** At shutdown, how long buffered completion logs may wait for the database. */
  logShutdownGraceMs: number;
  batchMaxRequests: number;
  /** Vendor calls in flight at once for one project, across all worker processes. */
  batchConcurrency: number;
  /** How long a worker's share of a project's concurrency outlives the worker (a killed one). */
  batchSlotLeaseMs: number;
  /** Batches one worker process works on at once (the consumer's prefetch). */
  batchWorkerPrefetch: number;
  /** Items a worker claims per round trip. */
  batchClaimSize: number;
  /** A slice of work per message; an unfinished batch is handed on through the outbox. */
  batchSliceMs: number;
  batchHeartbeatMs: number;
  /** A claimed item or a processing batch whose worker was silent this long is taken over. */
  batchStaleMs: number;
  batchSweepIntervalMs: number;
  batchQueue: string;
  webhookQueue: string;
  /** Delays before each webhook retry; attempts = delays + 1. */
  webhookRetryDelaysMs: number[];
  webhookTimeoutMs: number;
  /** Retries of one model on a vendor 429, 5xx, connection error or timeout, before its fallbacks. */
  gatewayRetries: number;
  /** First backoff between retries; it doubles (with jitter). */
  gatewayRetryBaseMs: number;
  /** The longest vendor Retry-After the gateway waits out; a longer one moves on to the fallback. */
  gatewayRetryMaxWaitMs: number;
  /** Fallback models one request may name (and the project's default list may hold). */
  gatewayMaxFallbacks: number;
  /** Streams this process holds open at once, all projects together (each holds two sockets). */
  gatewayMaxStreams: number;
  /** Streams one project may hold open on one replica at once: by default a quarter of the total. */
  gatewayMaxStreamsPerProject: number;
  /** The longest a stream may stay open; then it ends with an error event. */
  gatewayStreamMaxMs: number;
  /** `false`: /chat/completions neither meters nor enforces budgets and rate limits (spend capped elsewhere). */
  gatewayLimits: boolean;
  /** Finished requests are settled against the project's meters in groups, at most this late. */
  meterFlushMs: number;
  /**
   * The longest this process keeps a lease on a project's allowance (requests admitted from
   * memory); also how late it sees limits changed through another replica. 0: no leases.
   */
  gatewayLeaseTtlMs: number;
  /** Where the OpenAI and Anthropic SDKs send requests (a stand-in in tests); the vendors' own when unset. */
  openaiBaseUrl?: string;
  anthropicBaseUrl?: string;
  /** Hosts a batch webhook may reach although they resolve to a private address (local receivers). */
  webhookAllowedHosts: string[];
}

/** The document states this default; a deployment may set another. */
export const BATCH_MAX_REQUESTS_DEFAULT = 10_000;

const schema = Joi.object({
  LLM_ROLE: Joi.string().valid('all', 'api', 'worker').default('all'),
  LLM_VENDOR_TIMEOUT_MS: Joi.number().integer().min(100).default(60_000),
  LLM_VENDOR_MAX_RETRIES: Joi.number().integer().min(0).max(5).default(1),
  LLM_DEFAULT_MAX_TOKENS: Joi.number().integer().min(1).default(1024),
  LLM_CLIENT_CACHE_TTL_MS: Joi.number().integer().min(0).default(60_000),
  LLM_LOG_FLUSH_MS: Joi.number().integer().min(1).default(100),
  LLM_LOG_MAX_BUFFERED: Joi.number().integer().min(1).default(50_000),
  LLM_LOG_SHUTDOWN_GRACE_MS: Joi.number().integer().min(0).default(10_000),
  LLM_BATCH_MAX_REQUESTS: Joi.number().integer().min(1).default(BATCH_MAX_REQUESTS_DEFAULT),
  LLM_BATCH_CONCURRENCY: Joi.number().integer().min(1).max(1000).default(16),
  LLM_BATCH_SLOT_LEASE_MS: Joi.number().integer().min(300).default(30_000),
  LLM_BATCH_WORKER_PREFETCH: Joi.number().integer().min(1).max(100).default(4),
  LLM_BATCH_CLAIM_SIZE: Joi.number().integer().min(1).max(1000).default(100),
  LLM_BATCH_SLICE_MS: Joi.number().integer().min(100).default(120_000),
  LLM_BATCH_HEARTBEAT_MS: Joi.number().integer().min(10).default(10_000),
  LLM_BATCH_STALE_MS: Joi.number().integer().min(50).default(180_000),
  LLM_BATCH_SWEEP_INTERVAL_MS: Joi.number().integer().min(10).default(30_000),
  LLM_BATCH_QUEUE: Joi.string().default('llm.batch-worker'),
  LLM_WEBHOOK_QUEUE: Joi.string().default('llm.batch-webhooks'),
  // 1 min, 5 min, 15 min, 30 min, 60 min after the first attempt: 6 attempts over an hour.
  LLM_WEBHOOK_RETRY_DELAYS_MS: Joi.string()
    .pattern(/^\d+(,\d+)*$/)
    .default('60000,240000,600000,900000,1800000'),
  LLM_WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  LLM_GATEWAY_RETRIES: Joi.number().integer().min(0).max(10).default(2),
  LLM_GATEWAY_RETRY_BASE_MS: Joi.number().integer().min(0).default(250),
  LLM_GATEWAY_RETRY_MAX_WAIT_MS: Joi.number().integer().min(0).default(10_000),
  LLM_GATEWAY_MAX_FALLBACKS: Joi.number().integer().min(0).max(20).default(5),
  LLM_GATEWAY_MAX_STREAMS: Joi.number().integer().min(1).default(500),
  LLM_GATEWAY_MAX_STREAMS_PER_PROJECT: Joi.number().integer().min(1),
  LLM_GATEWAY_STREAM_MAX_MS: Joi.number().integer().min(1_000).default(600_000),
  LLM_GATEWAY_LIMITS: Joi.boolean().default(true),
  LLM_METER_FLUSH_MS: Joi.number().integer().min(1).default(100),
  LLM_GATEWAY_LEASE_TTL_MS: Joi.number().integer().min(0).max(60_000).default(1_000),
  OPENAI_BASE_URL: Joi.string().uri(),
  ANTHROPIC_BASE_URL: Joi.string().uri(),
  WEBHOOK_ALLOWED_HOSTS: Joi.string().allow('').default(''),
}).unknown(true);

export function loadLlmConfig(env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const value = readEnv(schema, env, 'LLM');
  if (value.LLM_BATCH_HEARTBEAT_MS >= value.LLM_BATCH_STALE_MS) {
    throw new ConfigError('LLM_BATCH_HEARTBEAT_MS must be shorter than LLM_BATCH_STALE_MS');
  }
  // A project's fair share: at least four projects can fill theirs at once.
  const streamsPerProject = value.LLM_GATEWAY_MAX_STREAMS_PER_PROJECT ?? Math.ceil(value.LLM_GATEWAY_MAX_STREAMS / 4);
  if (streamsPerProject > value.LLM_GATEWAY_MAX_STREAMS) {
    throw new ConfigError('LLM_GATEWAY_MAX_STREAMS_PER_PROJECT must not exceed LLM_GATEWAY_MAX_STREAMS');
  }
  return {
    role: value.LLM_ROLE,
    vendorTimeoutMs: value.LLM_VENDOR_TIMEOUT_MS,
    vendorMaxRetries: value.LLM_VENDOR_MAX_RETRIES,
    defaultMaxTokens: value.LLM_DEFAULT_MAX_TOKENS,
    clientCacheTtlMs: value.LLM_CLIENT_CACHE_TTL_MS,
    logFlushMs: value.LLM_LOG_FLUSH_MS,
    logMaxBuffered: value.LLM_LOG_MAX_BUFFERED,
    logShutdownGraceMs: value.LLM_LOG_SHUTDOWN_GRACE_MS,
    batchMaxRequests: value.LLM_BATCH_MAX_REQUESTS,
    batchConcurrency: value.LLM_BATCH_CONCURRENCY,
    batchSlotLeaseMs: value.LLM_BATCH_SLOT_LEASE_MS,
    batchWorkerPrefetch: value.LLM_BATCH_WORKER_PREFETCH,
    batchClaimSize: value.LLM_BATCH_CLAIM_SIZE,
    batchSliceMs: value.LLM_BATCH_SLICE_MS,
    batchHeartbeatMs: value.LLM_BATCH_HEARTBEAT_MS,
    batchStaleMs: value.LLM_BATCH_STALE_MS,
    batchSweepIntervalMs: value.LLM_BATCH_SWEEP_INTERVAL_MS,
    batchQueue: value.LLM_BATCH_QUEUE,
    webhookQueue: value.LLM_WEBHOOK_QUEUE,
    webhookRetryDelaysMs: parseRetryDelays(String(value.LLM_WEBHOOK_RETRY_DELAYS_MS)),
    webhookTimeoutMs: value.LLM_WEBHOOK_TIMEOUT_MS,
    gatewayRetries: value.LLM_GATEWAY_RETRIES,
    gatewayRetryBaseMs: value.LLM_GATEWAY_RETRY_BASE_MS,
    gatewayRetryMaxWaitMs: value.LLM_GATEWAY_RETRY_MAX_WAIT_MS,
    gatewayMaxFallbacks: value.LLM_GATEWAY_MAX_FALLBACKS,
    gatewayMaxStreams: value.LLM_GATEWAY_MAX_STREAMS,
    gatewayMaxStreamsPerProject: streamsPerProject,
    gatewayStreamMaxMs: value.LLM_GATEWAY_STREAM_MAX_MS,
    gatewayLimits: value.LLM_GATEWAY_LIMITS,
    meterFlushMs: value.LLM_METER_FLUSH_MS,
    gatewayLeaseTtlMs: value.LLM_GATEWAY_LEASE_TTL_MS,
    openaiBaseUrl: value.OPENAI_BASE_URL,
    anthropicBaseUrl: value.ANTHROPIC_BASE_URL,
    webhookAllowedHosts: String(value.WEBHOOK_ALLOWED_HOSTS)
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
  };
}
