import type { Knex } from 'knex';
import { deleteInLockedBatches, type LockedBatchesResult } from '@platform/db';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Logger } from '@platform/http';
import type { NotificationsConfig } from '../config';

/** Name of the advisory lock that lets one replica at a time purge. */
export const PURGE_LOCK = 'notifications.purge';

export interface PurgeOptions {
  retentionDays: number;
  batchSize: number;
}

/**
 * Removes notifications that expired or were soft-deleted more than `retentionDays` ago,
 * with their receipts (ON DELETE CASCADE). This is maintenance across all tenants, the one
 * query here that takes no tenant. In short batches, one replica at a time.
 */
export async function purgeNotifications(db: Knex, options: PurgeOptions): Promise<LockedBatchesResult> {
  return deleteInLockedBatches(db, PURGE_LOCK, options.batchSize, async (trx) => {
    const result = await trx.raw<{ rowCount: number }>(
      `delete from notifications where id in (
         select id from notifications
         where deleted_at < now() - make_interval(days => ?::int)
            or expires_at < now() - make_interval(days => ?::int)
         limit ?::int
         for update skip locked)`,
      [options.retentionDays, options.retentionDays, options.batchSize],
    );
    return result.rowCount;
  });
}

/** Name of the advisory lock of the change-log purge. */
export const CHANGES_PURGE_LOCK = 'notifications.changes-purge';

/** Removes changes older than the replay window: a client that missed them gets `reset`. */
export async function purgeChanges(
  db: Knex,
  options: { windowHours: number; batchSize: number },
): Promise<LockedBatchesResult> {
  return deleteInLockedBatches(db, CHANGES_PURGE_LOCK, options.batchSize, async (trx) => {
    const result = await trx.raw<{ rowCount: number }>(
      `delete from notification_events where ctid in (
         select ctid from notification_events
         where created_at < now() - make_interval(hours => ?::int)
         limit ?::int
         for update skip locked)`,
      [options.windowHours, options.batchSize],
    );
    return result.rowCount;
  });
}

/** Runs the purge every `purgeIntervalMs` (first run shortly after start); stop() waits for a run in flight. */
export function startPurgeSchedule(db: Knex, logger: Logger, config: NotificationsConfig): StopFunction {
  return startRecurringJob({
    name: 'notifications purge',
    intervalMs: config.purgeIntervalMs,
    firstRunMs: Math.min(config.purgeIntervalMs, 60_000),
    logger,
    run: async () => {
      const { retentionDays } = config;
      const result = await purgeNotifications(db, { retentionDays, batchSize: config.purgeBatchSize });
      if (result.removed) logger.info('notifications purged', { removed: result.removed, retentionDays });
      const windowHours = config.live.replayWindowHours;
      const changes = await purgeChanges(db, { windowHours, batchSize: config.purgeBatchSize });
      if (changes.removed) logger.info('notification changes purged', { removed: changes.removed, windowHours });
    },
  });
}
