import type { Knex } from 'knex';
import { deleteInLockedBatches } from '@platform/db';
import type { Logger } from '@platform/http';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import { deleteExpiredEvents } from './audit.repository';

/** Name of the advisory lock that lets one replica at a time prune. */
export const EVENTS_PRUNE_LOCK = 'auth.security-events.prune';

const HOUR_MS = 3600_000;
const BATCH_SIZE = 5_000;

/** Removes events older than the retention in short batches, one replica at a time. */
export async function pruneSecurityEvents(db: Knex, retentionDays: number): Promise<number> {
  const result = await deleteInLockedBatches(db, EVENTS_PRUNE_LOCK, BATCH_SIZE, (trx) =>
    deleteExpiredEvents(trx, retentionDays, BATCH_SIZE),
  );
  return result.removed;
}

/** Hourly: retention is counted in days, so an event outlives it by at most an hour. */
export function startSecurityEventPrune(db: Knex, logger: Logger, retentionDays: number): StopFunction {
  return startRecurringJob({
    name: 'security events prune',
    intervalMs: HOUR_MS,
    firstRunMs: 60_000,
    logger,
    run: async () => {
      const removed = await pruneSecurityEvents(db, retentionDays);
      if (removed) logger.info('security events past their retention pruned', { removed });
    },
  });
}
