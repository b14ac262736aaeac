import type { Knex } from 'knex';
import { tryTransactionLock } from '@platform/db';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Logger } from '@platform/tenancy';
import type { NotificationsConfig } from '../config';

/** Name of the advisory lock that lets one replica at a time purge. */
export const PURGE_LOCK = 'notifications.purge';

export interface PurgeOptions {
  retentionDays: number;
  batchSize: number;
}

export interface PurgeResult {
  removed: number;
  /** True when another replica held the lock, so this run did nothing. */
  skipped: boolean;
}

/**
 * Removes notifications that expired or were soft-deleted more than `retentionDays` ago,
 * with their receipts (ON DELETE CASCADE). This is maintenance across all tenants, the one
 * query here that takes no tenant. Each batch is its own short transaction holding a
 * transaction-level advisory lock: a crash can never leave the lock behind, and a replica
 * that finds it taken stops, since another one is already purging.
 */
export async function purgeNotifications(db: Knex, options: PurgeOptions): Promise<PurgeResult> {
  let removed = 0;
  for (;;) {
    const batch = await db.transaction(async (trx) => {
      if (!(await tryTransactionLock(trx, PURGE_LOCK))) return null;
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
    if (batch === null) return { removed, skipped: removed === 0 };
    removed += batch;
    if (batch < options.batchSize) return { removed, skipped: false };
  }
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
