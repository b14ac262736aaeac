import type { Knex } from 'knex';

/**
 * Takes a transaction-level advisory lock named `name` if no one holds it; false when another
 * session does. Released by commit, rollback or a dropped connection, so a crash never leaves
 * it behind. For work that one replica at a time should do (purges, feed refreshes).
 */
export async function tryTransactionLock(trx: Knex.Transaction, name: string): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: { locked: boolean }[] }>(
    'select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked',
    [name],
  );
  return rows[0].locked;
}

export interface LockedBatchesResult {
  removed: number;
  /** True when another session held the lock before any batch ran, so nothing was done. */
  skipped: boolean;
}

/**
 * Deletes in batches for work one replica at a time does (purges, prunes): each batch is its own
 * short transaction holding the lock `name`, so a large backlog never holds one long transaction,
 * and a replica that finds the lock taken stops, since another one is already at it.
 * `deleteBatch` removes at most `batchSize` rows and says how many; a short batch ends the run.
 */
export async function deleteInLockedBatches(
  db: Knex,
  name: string,
  batchSize: number,
  deleteBatch: (trx: Knex.Transaction) => Promise<number>,
): Promise<LockedBatchesResult> {
  let removed = 0;
  for (;;) {
    const batch = await db.transaction(async (trx) =>
      (await tryTransactionLock(trx, name)) ? deleteBatch(trx) : null,
    );
    if (batch === null) return { removed, skipped: removed === 0 };
    removed += batch;
    if (batch < batchSize) return { removed, skipped: false };
  }
}
