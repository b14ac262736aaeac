import type { Knex } from 'knex';
import { deleteInLockedBatches, type LockedBatchesResult } from '@platform/db';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Logger } from '@platform/http';
import { LOCKOUT_MS } from './lockout.policy';
import { deleteExpiredLoginFailures } from './login-failures.repository';

/** Name of the advisory lock that lets one replica at a time prune. */
export const PRUNE_LOCK = 'auth.login-failures.prune';

export interface PruneOptions {
  intervalMs: number;
  batchSize: number;
}

/**
 * Once per lock length: a row lives at most about two windows past its last failure. Stale
 * rows answer like absent ones, so the schedule only bounds the table's size (every email an
 * attacker sprays leaves a row), never the behaviour.
 */
export const PRUNE_DEFAULTS: PruneOptions = { intervalMs: LOCKOUT_MS, batchSize: 5_000 };

/** Removes stale login_failures rows in short batches, one replica at a time. */
export async function pruneLoginFailures(db: Knex, batchSize = PRUNE_DEFAULTS.batchSize): Promise<LockedBatchesResult> {
  return deleteInLockedBatches(db, PRUNE_LOCK, batchSize, (trx) => deleteExpiredLoginFailures(trx, batchSize));
}

/** Prunes every `intervalMs` (first run shortly after start); stop() waits for a run in flight. */
export function startLoginFailurePrune(db: Knex, logger: Logger, options = PRUNE_DEFAULTS): StopFunction {
  return startRecurringJob({
    name: 'login failures prune',
    intervalMs: options.intervalMs,
    firstRunMs: Math.min(options.intervalMs, 60_000),
    logger,
    run: async () => {
      const result = await pruneLoginFailures(db, options.batchSize);
      if (result.removed) logger.info('stale login failures pruned', { removed: result.removed });
    },
  });
}
