import { ConfigError, Joi } from '@platform/tenancy';
import type { ValidationBudget } from './content-types/content-validation';

/** CMS-only settings; the feed list itself is platform config (`NEWS_FEEDS`). */
export interface CmsConfig {
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
}

const schema = Joi.object({
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
  CMS_VALIDATION_MAX_ERRORS: Joi.number().integer().min(1).max(1_000).default(50),
}).unknown(true);

/** Reads the CMS settings from the environment once, with defaults. */
export function loadCmsConfig(env: NodeJS.ProcessEnv = process.env): CmsConfig {
  const { value, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new ConfigError(`Invalid CMS configuration: ${error.message}`);
  return {
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
      maxErrors: value.CMS_VALIDATION_MAX_ERRORS,
    },
  };
}
