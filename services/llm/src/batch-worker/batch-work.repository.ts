import type { Knex } from 'knex';
import { tenantBindings, sharedTable, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { ChatMessage, ProviderType, Usage } from '../vendors/vendor-types';
import { BATCH_COLUMNS, type BatchRow, type BatchStatus, type BatchTableRow } from '../batches/batches.model';

/** The worker's queries. A batch arrives by id alone (from an event); its row then names the tenant. */

/** An item a worker took, as `batch_items` holds it. */
export interface ClaimedItemRow {
  custom_id: string;
  position: number;
  model: string;
  provider: ProviderType;
  messages: ChatMessage[];
  max_tokens: number | null;
  temperature: number | null;
}

/** What a worker stores for an item; the results endpoint reads it back. */
export interface ItemResult {
  customId: string;
  status: 'succeeded' | 'failed';
  completion: string | null;
  /** The model the vendor reported, or the one requested when the call never reached it. */
  model: string;
  usage: Usage;
  error: string | null;
}

/** pending -> processing (or keeps processing); null when the batch is finished, cancelled or unknown. */
export async function startBatch(db: Knex, batchId: string): Promise<BatchRow | null> {
  // By id alone: the event names the batch, and its row then names the tenant.
  const [row] = await sharedTable<BatchTableRow>(db, 'batches')
    .where({ id: batchId })
    .whereIn('status', ['pending', 'processing'])
    .update({ status: 'processing', started_at: db.raw('coalesce(started_at, now())'), heartbeat_at: db.fn.now() })
    .returning<BatchRow[]>(BATCH_COLUMNS);
  return row ?? null;
}

export async function batchStatus(db: Knex, tenant: Tenant, batchId: string): Promise<BatchStatus | null> {
  const row = await tenantTable<BatchTableRow>(db, tenant, 'batches').where({ id: batchId }).first('status');
  return row?.status ?? null;
}

/**
 * Takes up to `limit` items nobody is working on: pending ones, and processing ones whose
 * claim went stale (their worker died). SKIP LOCKED lets several workers share one batch.
 * Nothing is claimed once the batch has left `processing` (cancelled).
 */
export async function claimItems(
  db: Knex,
  tenant: Tenant,
  batchId: string,
  limit: number,
  staleMs: number,
): Promise<ClaimedItemRow[]> {
  const result = await db.raw<{ rows: ClaimedItemRow[] }>(
    `update batch_items set status = 'processing', claimed_at = now()
      where (batch_id, custom_id) in (
        select i.batch_id, i.custom_id from batch_items i
         where i.batch_id = :batchId
           and (i.status = 'pending' or (i.status = 'processing' and i.claimed_at < now() - make_interval(secs => :staleSeconds)))
           and exists (select 1 from batches b where b.id = :batchId and b.tenant_id = :tenantId and b.project_id = :projectId and b.status = 'processing')
         order by i.position
         limit :limit
         for update of i skip locked)
      returning custom_id, position, model, provider, messages, max_tokens, temperature`,
    { batchId, staleSeconds: staleMs / 1000, limit, ...tenantBindings(tenant) },
  );
  // An update returns its rows in no set order; items run in their batch's order.
  return result.rows.sort((a, b) => a.position - b.position);
}

/**
 * Writes results; an item already finished (by another worker that took over) keeps its first
 * result. Returns the custom_ids actually written, so logs and counters follow exactly those.
 */
export async function saveResults(
  trx: Knex.Transaction,
  tenant: Tenant,
  batchId: string,
  results: ItemResult[],
): Promise<Set<string>> {
  if (!results.length) return new Set();
  const payload = results.map((r) => ({
    custom_id: r.customId,
    status: r.status,
    completion: r.completion,
    result_model: r.model,
    prompt_tokens: r.usage.prompt_tokens,
    completion_tokens: r.usage.completion_tokens,
    total_tokens: r.usage.total_tokens,
    error: r.error,
  }));
  const written = await trx.raw(
    `update batch_items i set status = r.status, completion = r.completion, result_model = r.result_model,
            prompt_tokens = r.prompt_tokens, completion_tokens = r.completion_tokens, total_tokens = r.total_tokens,
            error = r.error, finished_at = now()
       from jsonb_to_recordset(:payload::jsonb) as r(custom_id text, status text, completion text, result_model text,
            prompt_tokens int, completion_tokens int, total_tokens int, error text)
      where i.batch_id = :batchId and i.custom_id = r.custom_id and i.status = 'processing'
        and exists (select 1 from batches b where b.id = :batchId and b.tenant_id = :tenantId and b.project_id = :projectId)
      returning i.custom_id, i.status`,
    { payload: JSON.stringify(payload), batchId, ...tenantBindings(tenant) },
  );
  const rows = written.rows as { custom_id: string; status: string }[];
  const succeeded = rows.filter((r) => r.status === 'succeeded').length;
  if (rows.length) {
    await tenantTable<BatchTableRow>(trx, tenant, 'batches')
      .where({ id: batchId })
      .update({
        completed_count: trx.raw('completed_count + ?', [succeeded]),
        failed_count: trx.raw('failed_count + ?', [rows.length - succeeded]),
        heartbeat_at: trx.fn.now(),
      });
  }
  return new Set(rows.map((r) => r.custom_id));
}

/** Gives claimed items back (a worker stopping cleanly) so the next worker takes them at once. */
export async function releaseItems(db: Knex, tenant: Tenant, batchId: string, customIds: string[]): Promise<void> {
  if (!customIds.length) return;
  // Items carry no owner of their own: the batch they belong to must be the tenant's.
  await sharedTable(db, 'batch_items')
    .where({ batch_id: batchId, status: 'processing' })
    .whereIn('custom_id', customIds)
    .whereExists(tenantTable<BatchTableRow>(db, tenant, 'batches').where({ id: batchId }).select(db.raw('1')))
    .update({ status: 'pending', claimed_at: null });
}

/** The worker is alive: refreshes the batch heartbeat and the claims it holds. */
export async function heartbeat(db: Knex, tenant: Tenant, batchId: string, heldIds: string[]): Promise<void> {
  await tenantTable<BatchTableRow>(db, tenant, 'batches').where({ id: batchId }).update({ heartbeat_at: db.fn.now() });
  if (heldIds.length) {
    // The claims this worker holds on the batch it just renewed (items carry no owner of their own).
    await sharedTable(db, 'batch_items')
      .where({ batch_id: batchId, status: 'processing' })
      .whereIn('custom_id', heldIds)
      .update({ claimed_at: db.fn.now() });
  }
}

export async function openItemCount(db: Knex, tenant: Tenant, batchId: string): Promise<number> {
  const row = await tenantTable(db, tenant, 'batches as b')
    .join('batch_items as i', 'b.id', 'i.batch_id')
    .where('b.id', batchId)
    .whereIn('i.status', ['pending', 'processing'])
    .count<{ count: string }[]>({ count: '*' });
  return Number(row[0]?.count ?? 0);
}

/**
 * processing -> completed (or failed when every item failed), once every item has its result.
 * Only one caller wins; it gets the final row (and writes the webhook event in the same transaction).
 */
export async function finishBatch(trx: Knex.Transaction, tenant: Tenant, batchId: string): Promise<BatchRow | null> {
  const [row] = await tenantTable<BatchTableRow>(trx, tenant, 'batches')
    .where({ id: batchId, status: 'processing' })
    .whereRaw('completed_count + failed_count >= request_count')
    .update({
      status: trx.raw("case when failed_count >= request_count then 'failed' else 'completed' end"),
      completed_at: trx.fn.now(),
    })
    .returning<BatchRow[]>(BATCH_COLUMNS);
  return row ?? null;
}

/** Unfinished batches whose worker went silent; their heartbeat is renewed so each is picked once. */
export async function takeStaleBatches(trx: Knex.Transaction, staleMs: number, limit: number): Promise<BatchRow[]> {
  // A sweep over every tenant's batches.
  const rows = await sharedTable<BatchTableRow>(trx, 'batches')
    .whereIn('status', ['pending', 'processing'])
    .whereRaw('coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ?)', [staleMs / 1000])
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select<BatchRow[]>(...BATCH_COLUMNS);
  if (!rows.length) return [];
  await sharedTable<BatchTableRow>(trx, 'batches')
    .whereIn(
      'id',
      rows.map((r) => r.id),
    )
    .update({ heartbeat_at: trx.fn.now() });
  return rows;
}
