import type { Knex } from 'knex';
import { tenantBindings, tenantTable, type Tenant } from '@platform/db';
import { emailKey } from '../users/user-email';
import { FAILURE_WINDOW_MS, LOCKOUT_MS, LOCKOUT_THRESHOLD } from './lockout.policy';

export { emailKey } from '../users/user-email';

// A run goes on while its last failure is within the window or a lock holds; otherwise the
// row is stale (and prunable, see deleteExpiredLoginFailures) and the run starts again at 1.
const NEXT_COUNT = `(case when f.last_failed_at > now() - :windowMs * interval '1 millisecond' or f.locked_until > now()
                          then f.failed_count + 1 else 1 end)`;
const LOCK_END = `now() + :lockMs * interval '1 millisecond'`;

// A first failure never locks (LOCKOUT_THRESHOLD > 1), so a new row starts at 1, unlocked.
const LOGIN_FAILURE = `
insert into login_failures as f (tenant_id, project_id, email_hash, failed_count, last_failed_at, locked_until)
values (:tenantId, :projectId, :emailHash, 1, now(), null)
on conflict (tenant_id, project_id, email_hash) do update
   set failed_count = case when ${NEXT_COUNT} >= :threshold then 0 else ${NEXT_COUNT} end,
       locked_until = case when ${NEXT_COUNT} >= :threshold then ${LOCK_END} else f.locked_until end,
       last_failed_at = now()
returning f.failed_count = 0 and f.locked_until > now() as locked`;

/**
 * Counts one failed login against the email, whether or not an account has it, in a single
 * statement (the upsert locks the row, so concurrent failures each count); the
 * LOCKOUT_THRESHOLD-th failure of a run locks the email for LOCKOUT_MS and starts a fresh
 * count. Known and unknown emails run the same statement on the same kind of row. True when
 * this failure locked the email.
 */
export async function recordLoginFailure(db: Knex, tenant: Tenant, email: string): Promise<boolean> {
  const result = await db.raw<{ rows: { locked: boolean }[] }>(LOGIN_FAILURE, {
    ...tenantBindings(tenant),
    emailHash: emailKey(email),
    threshold: LOCKOUT_THRESHOLD,
    lockMs: LOCKOUT_MS,
    windowMs: FAILURE_WINDOW_MS,
  });
  return result.rows[0]?.locked === true;
}

/** The lock on the email (it may lie in the past), or null. */
export async function findLock(db: Knex, tenant: Tenant, email: string): Promise<Date | null> {
  const row = await tenantTable(db, tenant, 'login_failures')
    .where({ email_hash: emailKey(email) })
    .first('locked_until');
  return (row?.locked_until as Date | null | undefined) ?? null;
}

/** Forgets the email's failures and lifts its lock (a password reset, a new account). */
export async function clearLoginFailures(db: Knex, tenant: Tenant, email: string): Promise<void> {
  await tenantTable(db, tenant, 'login_failures')
    .where({ email_hash: emailKey(email) })
    .delete();
}

/**
 * Deletes up to `batchSize` stale rows (no failure within the window, no lock in force): rows
 * that recordLoginFailure would start afresh anyway, so pruning never changes an answer.
 * A sweep across all tenants (maintenance), the one query here that takes no tenant.
 */
export async function deleteExpiredLoginFailures(db: Knex, batchSize: number): Promise<number> {
  const result = await db.raw<{ rowCount: number }>(
    // By ctid: the rows are locked by the subquery, and a TID scan beats joining the 3-column key.
    `delete from login_failures where ctid = any(array(
       select ctid from login_failures
        where last_failed_at <= now() - :windowMs * interval '1 millisecond'
          and (locked_until is null or locked_until <= now())
        limit :batchSize
        for update skip locked))`,
    { windowMs: FAILURE_WINDOW_MS, batchSize },
  );
  return result.rowCount;
}
