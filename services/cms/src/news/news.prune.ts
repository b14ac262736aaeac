import type { Knex } from 'knex';
import { deleteInLockedBatches } from '@platform/db';
import { NEWS_REFRESH_LOCK } from './news.lock';
import { deleteNewsOlderThan } from './news.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The moment before which news is too old to keep; undefined when retention is off (0 days). */
export function retentionCutoff(retentionDays: number, now = Date.now()): Date | undefined {
  return retentionDays > 0 ? new Date(now - retentionDays * DAY_MS) : undefined;
}

/**
 * Deletes news older than `cutoff` in batches and returns how many went. Each batch is its own
 * short transaction under the refresh lock, so a large backlog never holds one long transaction,
 * and a replica that finds the lock taken stops: the one holding it prunes after its refresh.
 */
export async function pruneNews(db: Knex, cutoff: Date, batchSize: number): Promise<number> {
  const { removed } = await deleteInLockedBatches(db, NEWS_REFRESH_LOCK, batchSize, (trx) =>
    deleteNewsOlderThan(trx, cutoff, batchSize),
  );
  return removed;
}
