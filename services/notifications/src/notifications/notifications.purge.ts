import type { Knex } from 'knex';
import { deleteInLockedBatches, type LockedBatchesResult } from '@platform/db';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Logger } from '@platform/tenancy';
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
    },
  });
}
