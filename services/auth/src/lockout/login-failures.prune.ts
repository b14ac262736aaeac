import type { Knex } from 'knex';
import { tryTransactionLock } from '@platform/db';
import { startRecurringJob, type StopFunction } from '@platform/runtime';
import type { Logger } from '@platform/tenancy';
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

export interface PruneResult {
  removed: number;
  /** True when another replica held the lock, so this run did nothing. */
  skipped: boolean;
}

/**
 * Removes stale login_failures rows in batches, each its own short transaction holding a
 * transaction-level advisory lock: a crash never leaves the lock behind, and a replica that
 * finds it taken stops, since another one is already pruning.
 */
export async function pruneLoginFailures(db: Knex, batchSize = PRUNE_DEFAULTS.batchSize): Promise<PruneResult> {
  let removed = 0;
  for (;;) {
    const batch = await db.transaction(async (trx) => {
      if (!(await tryTransactionLock(trx, PRUNE_LOCK))) return null;
      return deleteExpiredLoginFailures(trx, batchSize);
    });
    if (batch === null) return { removed, skipped: removed === 0 };
    removed += batch;
    if (batch < batchSize) return { removed, skipped: false };
  }
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
