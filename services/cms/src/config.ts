import { Joi } from '@platform/tenancy';
import { ConfigError, readEnv } from '@platform/runtime';
import type { ValidationBudget } from './content-types/content-validation';
import { parseRetryDelays } from '@platform/webhooks';
import type { FeedSource } from './news/feed-reader';

/** The CMS's own settings, read from the environment only here. */
export interface CmsConfig {
  /** The RSS/Atom feeds the news job reads (`NEWS_FEEDS`, a JSON list of `{url, category}`). */
  newsFeeds: FeedSource[];
  /** Hosts content webhooks may reach over plain HTTP or at private addresses (local receivers). */
  webhookAllowedHosts: string[];
  /** How often the news job runs (SPEC limits: 2 hours). */
  newsRefreshIntervalMs: number;
  /** Per-feed request timeout. */
  newsFeedTimeoutMs: number;
  /** Largest feed document accepted. */
  newsFeedMaxBytes: number;
  /** News older than this many days is not stored and is deleted by the refresh; 0 keeps it forever. */
  newsRetentionDays: number;
  /** Rows deleted per prune transaction, so that a large backlog never holds long locks. */
  newsPruneBatchSize: number;
  /** How long all the patterns of a new or changed content type schema may take to compile together. */
  patternCompileBudgetMs: number;
  /** Budgets of compiling a tenant's schema and of validating one item's content against it. */
  validationBudget: ValidationBudget;
  /** How often each replica looks for due publishAt/unpublishAt times (well within the promised 30 s). */
  scheduleIntervalMs: number;
  /** Items one scheduler transaction publishes or unpublishes at most. */
  scheduleBatchSize: number;
  webhookQueue: string;
  /** Attempts one replica carries out at once (the consumer's prefetch). */
  webhookPrefetch: number;
  /** Longest silence from a receiver (the overall deadline is the platform's WEBHOOK_DEADLINE_MS). */
  webhookTimeoutMs: number;
  /** Delays before each retry; attempts = delays + 1. */
  webhookRetryDelaysMs: number[];
  webhooksPerProject: number;
}

const newsFeedsSchema = Joi.array()
  .items(
    Joi.object({
      url: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .required(),
      category: Joi.string().required(),
    }),
  )
  .default([]);

const schema = Joi.object({
  NEWS_FEEDS: Joi.string().default('[]'),
  WEBHOOK_ALLOWED_HOSTS: Joi.string().allow('').default(''),
  NEWS_REFRESH_INTERVAL_MS: Joi.number()
    .integer()
    .min(1_000)
    .default(2 * 60 * 60 * 1000),
  NEWS_FEED_TIMEOUT_MS: Joi.number().integer().min(100).default(15_000),
  NEWS_FEED_MAX_BYTES: Joi.number()
    .integer()
    .min(1_024)
    .default(5 * 1024 * 1024),
  NEWS_RETENTION_DAYS: Joi.number().integer().min(0).max(36_500).default(90),
  NEWS_PRUNE_BATCH_SIZE: Joi.number().integer().min(1).max(100_000).default(1_000),
  CMS_PATTERN_COMPILE_BUDGET_MS: Joi.number().integer().min(1).max(10_000).default(250),
  CMS_VALIDATION_BUDGET_MS: Joi.number().integer().min(10).max(60_000).default(500),
  CMS_VALIDATION_MEMORY_MB: Joi.number().integer().min(16).default(64),
  CMS_VALIDATION_THREADS: Joi.number().integer().min(1).max(16).default(2),
  CMS_VALIDATION_MAX_WAITING: Joi.number().integer().min(1).default(10),
  CMS_VALIDATION_THREADS_PER_PROJECT: Joi.number().integer().min(1).max(16).default(1),
  CMS_VALIDATION_MAX_OVERRUNS: Joi.number().integer().min(1).default(3),
  CMS_VALIDATION_PROJECT_MS_PER_SECOND: Joi.number().integer().min(1).max(16_000).default(250),
  CMS_VALIDATION_MAX_ERRORS: Joi.number().integer().min(1).max(1_000).default(50),
  CMS_SCHEDULE_INTERVAL_MS: Joi.number().integer().min(10).max(30_000).default(5_000),
  CMS_SCHEDULE_BATCH_SIZE: Joi.number().integer().min(1).max(10_000).default(100),
  CMS_WEBHOOK_QUEUE: Joi.string().default('cms.webhooks'),
  CMS_WEBHOOK_PREFETCH: Joi.number().integer().min(1).max(100).default(8),
  CMS_WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  // 1 min, 5 min, 15 min, 30 min, 60 min after the first attempt, as the LLM batch webhooks.
  CMS_WEBHOOK_RETRY_DELAYS_MS: Joi.string()
    .pattern(/^\d+(,\d+)*$/)
    .default('60000,240000,600000,900000,1800000'),
  CMS_WEBHOOKS_PER_PROJECT: Joi.number().integer().min(1).max(1000).default(10),
}).unknown(true);

/** Reads the CMS settings from the environment once, with defaults. */
export function loadCmsConfig(env: NodeJS.ProcessEnv = process.env): CmsConfig {
  const value = readEnv(schema, env, 'CMS');
  let newsFeeds: FeedSource[];
  try {
    newsFeeds = Joi.attempt(JSON.parse(value.NEWS_FEEDS), newsFeedsSchema) as FeedSource[];
  } catch (cause) {
    throw new ConfigError(`NEWS_FEEDS must be a JSON list of {url, category}: ${(cause as Error).message}`);
  }
  return {
    newsFeeds,
    webhookAllowedHosts: String(value.WEBHOOK_ALLOWED_HOSTS)
      .split(',')
      .map((host) => host.trim())
      .filter(Boolean),
    newsRefreshIntervalMs: value.NEWS_REFRESH_INTERVAL_MS,
    newsFeedTimeoutMs: value.NEWS_FEED_TIMEOUT_MS,
    newsFeedMaxBytes: value.NEWS_FEED_MAX_BYTES,
    newsRetentionDays: value.NEWS_RETENTION_DAYS,
    newsPruneBatchSize: value.NEWS_PRUNE_BATCH_SIZE,
    patternCompileBudgetMs: value.CMS_PATTERN_COMPILE_BUDGET_MS,
    validationBudget: {
      timeMs: value.CMS_VALIDATION_BUDGET_MS,
      memoryMb: value.CMS_VALIDATION_MEMORY_MB,
      threads: value.CMS_VALIDATION_THREADS,
      maxWaitingPerProject: value.CMS_VALIDATION_MAX_WAITING,
      threadsPerProject: value.CMS_VALIDATION_THREADS_PER_PROJECT,
      overrunsPerMinute: value.CMS_VALIDATION_MAX_OVERRUNS,
      projectMsPerSecond: value.CMS_VALIDATION_PROJECT_MS_PER_SECOND,
      maxErrors: value.CMS_VALIDATION_MAX_ERRORS,
    },
    scheduleIntervalMs: value.CMS_SCHEDULE_INTERVAL_MS,
    scheduleBatchSize: value.CMS_SCHEDULE_BATCH_SIZE,
    webhookQueue: value.CMS_WEBHOOK_QUEUE,
    webhookPrefetch: value.CMS_WEBHOOK_PREFETCH,
    webhookTimeoutMs: value.CMS_WEBHOOK_TIMEOUT_MS,
    webhookRetryDelaysMs: parseRetryDelays(String(value.CMS_WEBHOOK_RETRY_DELAYS_MS)),
    webhooksPerProject: value.CMS_WEBHOOKS_PER_PROJECT,
  };
}
