import type { Knex } from 'knex';
import { deleteInLockedBatches, type LockedBatchesResult } from '@platform/db';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Logger } from '@platform/http';
import { pruneExpiredKeys } from './idempotency.repository';

/** Name of the advisory lock that lets one replica at a time prune. */
export const IDEMPOTENCY_PRUNE_LOCK = 'mailer.idempotency-keys.prune';

const BATCH = 5_000;
const HOUR_MS = 3600_000;

/**
 * Expired keys behave like absent ones (a new claim takes them over), so pruning only bounds
 * the table's size: hourly, in short batches, one replica at a time.
 */
export async function pruneIdempotencyKeys(db: Knex, batchSize = BATCH): Promise<LockedBatchesResult> {
  return deleteInLockedBatches(db, IDEMPOTENCY_PRUNE_LOCK, batchSize, (trx) => pruneExpiredKeys(trx, batchSize));
}

export function startIdempotencyPrune(db: Knex, logger: Logger): StopFunction {
  return startRecurringJob({
    name: 'idempotency keys prune',
    intervalMs: HOUR_MS,
    firstRunMs: 60_000,
    logger,
    run: async () => {
      const result = await pruneIdempotencyKeys(db);
      if (result.removed) logger.info('expired idempotency keys pruned', { removed: result.removed });
    },
  });
}
