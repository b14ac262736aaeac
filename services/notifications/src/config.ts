import { Joi } from '@platform/tenancy';
import { readEnv } from '@platform/runtime';

/** Settings of the Notifications service; the only place that reads its environment. */
export interface NotificationsConfig {
  /** Days a row is kept after it expired or was soft-deleted, before the purge removes it. */
  retentionDays: number;
  /** How often the purge runs. */
  purgeIntervalMs: number;
  /** Rows removed per purge statement, so that one run never holds long locks. */
  purgeBatchSize: number;
  live: LiveConfig;
}

/** The live streams (issue 18). Connection limits are per service process. */
export interface LiveConfig {
  /** Interval of the comment line that keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Streams one project may hold open on one process; 429 beyond. */
  maxStreamsPerProject: number;
  /** Streams one user may hold open on one process; 429 beyond. */
  maxStreamsPerUser: number;
  /** Unsent bytes a stream may queue; a client that reads slower is disconnected. */
  maxBufferedBytes: number;
  /** Hours a change is kept for clients that reconnect with Last-Event-ID. */
  replayWindowHours: number;
  /** Most missed changes one reconnect replays; beyond that it gets `reset`. */
  replayMaxEvents: number;
  /** How often expired notifications are looked for and announced. */
  expirySweepMs: number;
}

const envSchema = Joi.object({
  NOTIFICATIONS_RETENTION_DAYS: Joi.number().integer().min(0).max(3650).default(30),
  NOTIFICATIONS_PURGE_INTERVAL_MS: Joi.number()
    .integer()
    .min(1_000)
    .default(60 * 60 * 1_000),
  NOTIFICATIONS_PURGE_BATCH_SIZE: Joi.number().integer().min(1).max(100_000).default(5_000),
  NOTIFICATIONS_STREAM_HEARTBEAT_MS: Joi.number().integer().min(100).max(300_000).default(15_000),
  NOTIFICATIONS_STREAMS_PER_PROJECT: Joi.number().integer().min(1).max(1_000_000).default(5_000),
  NOTIFICATIONS_STREAMS_PER_USER: Joi.number().integer().min(1).max(1_000).default(5),
  NOTIFICATIONS_STREAM_BUFFER_BYTES: Joi.number().integer().min(1_024).max(16_777_216).default(65_536),
  NOTIFICATIONS_REPLAY_WINDOW_HOURS: Joi.number().integer().min(1).max(720).default(24),
  NOTIFICATIONS_REPLAY_MAX_EVENTS: Joi.number().integer().min(1).max(100_000).default(1_000),
  NOTIFICATIONS_EXPIRY_SWEEP_MS: Joi.number().integer().min(100).max(3_600_000).default(5_000),
}).unknown(true);

export function loadNotificationsConfig(env: NodeJS.ProcessEnv = process.env): NotificationsConfig {
  const value = readEnv(envSchema, env, 'notifications');
  return {
    retentionDays: value.NOTIFICATIONS_RETENTION_DAYS,
    purgeIntervalMs: value.NOTIFICATIONS_PURGE_INTERVAL_MS,
    purgeBatchSize: value.NOTIFICATIONS_PURGE_BATCH_SIZE,
    live: {
      heartbeatMs: value.NOTIFICATIONS_STREAM_HEARTBEAT_MS,
      maxStreamsPerProject: value.NOTIFICATIONS_STREAMS_PER_PROJECT,
      maxStreamsPerUser: value.NOTIFICATIONS_STREAMS_PER_USER,
      maxBufferedBytes: value.NOTIFICATIONS_STREAM_BUFFER_BYTES,
      replayWindowHours: value.NOTIFICATIONS_REPLAY_WINDOW_HOURS,
      replayMaxEvents: value.NOTIFICATIONS_REPLAY_MAX_EVENTS,
      expirySweepMs: value.NOTIFICATIONS_EXPIRY_SWEEP_MS,
    },
  };
}
