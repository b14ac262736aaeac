import type { Knex } from 'knex';
import { waitFor } from '@platform/testkit';
import type { ApiClient } from '@platform/testkit';
import { BATCH_EVENTS } from '../../src/batches/batch-events';

export const user = (content: string) => [{ role: 'user', content }];

export function requests(count: number, model: string, prefix = 'req') {
  return Array.from({ length: count }, (_, i) => ({ custom_id: `${prefix}-${i}`, model, messages: user(`item ${i}`) }));
}

/** Polls the batch until it reaches one of `statuses`. */
export async function waitForBatch(
  api: ApiClient,
  headers: Record<string, string>,
  batchId: string,
  statuses: string[],
  timeoutMs = 15_000,
) {
  return waitFor(
    async () => {
      const res = await api.get(`/v1/batch/${batchId}`, { headers: headers });
      return statuses.includes(res.body.status) ? res.body : null;
    },
    { timeoutMs, intervalMs: 50 },
  );
}

/** How many items of the batch have a stored result. */
export async function resultCount(db: Knex, batchId: string): Promise<number> {
  const [row] = await db('batch_items')
    .where({ batch_id: batchId })
    .whereIn('status', ['succeeded', 'failed'])
    .count({ count: '*' });
  return Number(row.count);
}

/**
 * The batch's webhook events in the outbox (its `finished` event and any retries, oldest first),
 * each with whether the webhook consumer has handled it: once all are handled, no attempt is to come.
 */
export async function webhookEvents(db: Knex, batchId: string): Promise<{ type: string; handled: boolean }[]> {
  return db('outbox as o')
    .leftJoin('processed_events as p', function () {
      this.on('p.event_id', 'o.id').andOnVal('p.consumer', 'llm.batch-webhooks');
    })
    .whereIn('o.type', [BATCH_EVENTS.finished, BATCH_EVENTS.webhookRetry])
    .whereRaw(`o.envelope->'data'->>'batchId' = ?`, [batchId])
    .orderBy('o.created_at')
    .select('o.type', db.raw('p.event_id is not null as handled'));
}
