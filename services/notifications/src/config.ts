import { ConfigError, Joi } from '@platform/tenancy';

/** Settings of the Notifications service; the only place that reads its environment. */
export interface NotificationsConfig {
  /** Days a row is kept after it expired or was soft-deleted, before the purge removes it. */
  retentionDays: number;
  /** How often the purge runs. */
  purgeIntervalMs: number;
  /** Rows removed per purge statement, so that one run never holds long locks. */
  purgeBatchSize: number;
}

const envSchema = Joi.object({
  NOTIFICATIONS_RETENTION_DAYS: Joi.number().integer().min(0).max(3650).default(30),
  NOTIFICATIONS_PURGE_INTERVAL_MS: Joi.number()
    .integer()
    .min(1_000)
    .default(60 * 60 * 1_000),
  NOTIFICATIONS_PURGE_BATCH_SIZE: Joi.number().integer().min(1).max(100_000).default(5_000),
}).unknown(true);

export function loadNotificationsConfig(env: NodeJS.ProcessEnv = process.env): NotificationsConfig {
  const { value, error } = envSchema.validate(env, { abortEarly: false, convert: true });
  if (error)
    throw new ConfigError(`Invalid notifications configuration: ${error.details.map((d) => d.message).join('; ')}`);
  return {
    retentionDays: value.NOTIFICATIONS_RETENTION_DAYS,
    purgeIntervalMs: value.NOTIFICATIONS_PURGE_INTERVAL_MS,
    purgeBatchSize: value.NOTIFICATIONS_PURGE_BATCH_SIZE,
  };
}
