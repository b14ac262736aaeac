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
