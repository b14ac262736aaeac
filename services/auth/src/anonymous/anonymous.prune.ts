import type { Knex } from 'knex';
import { deleteInLockedBatches, type LockedBatchesResult } from '@platform/db';
import { AUTH_EVENTS, writeEvent, type UserDeletedData } from '@platform/events';
import type { Logger } from '@platform/http';
import { startRecurringJob, type StopFunction } from '@platform/runtime';

/** Name of the advisory lock that lets one replica at a time prune. */
export const ANONYMOUS_PRUNE_LOCK = 'auth.anonymous-users.prune';

export interface AnonymousPruneOptions {
  /** Anonymous users who did not sign up within this long are deleted. */
  maxAgeMs: number;
  intervalMs: number;
  batchSize: number;
}

/**
 * Deletes up to `batchSize` anonymous users older than `maxAgeMs` (their sessions, tokens and
 * trail go by cascade) and, in the same transaction, writes `auth.user.deleted` for each, the
 * event by which every service erases a deleted user's data. A sweep across all projects.
 */
async function deleteBatch(trx: Knex.Transaction, options: AnonymousPruneOptions): Promise<number> {
  const result = await trx.raw<{ rows: { id: string; tenant_id: string; project_id: string; email: string | null }[] }>(
    `delete from users where ctid = any(array(
       select ctid from users
        where anonymous_since is not null and anonymous_since <= now() - :maxAgeMs * interval '1 millisecond'
        limit :batchSize
        for update skip locked))
     returning id, tenant_id, project_id, email`,
    { maxAgeMs: options.maxAgeMs, batchSize: options.batchSize },
  );
  for (const row of result.rows) {
    await writeEvent<UserDeletedData>(trx, {
      type: AUTH_EVENTS.userDeleted,
      tenantId: row.tenant_id,
      projectId: row.project_id,
      data: { userId: row.id, reason: 'anonymous_pruned', email: row.email },
    });
  }
  return result.rows.length;
}

export function pruneAnonymousUsers(db: Knex, options: AnonymousPruneOptions): Promise<LockedBatchesResult> {
  return deleteInLockedBatches(db, ANONYMOUS_PRUNE_LOCK, options.batchSize, (trx) => deleteBatch(trx, options));
}

/** Prunes every `intervalMs` (first run shortly after start); stop() waits for a run in flight. */
export function startAnonymousUserPrune(
  db: Knex,
  relay: { kick(): void },
  logger: Logger,
  options: AnonymousPruneOptions,
): StopFunction {
  return startRecurringJob({
    name: 'anonymous users prune',
    intervalMs: options.intervalMs,
    firstRunMs: Math.min(options.intervalMs, 60_000),
    logger,
    run: async () => {
      const result = await pruneAnonymousUsers(db, options);
      if (result.removed) {
        relay.kick();
        logger.info('anonymous users pruned', { removed: result.removed });
      }
    },
  });
}
