import type { Knex } from 'knex';
import { tenantColumns, sharedTable, tenantTable } from '@platform/db';
import { isUuid, type Tenant } from '@platform/tenancy';
import {
  BATCH_COLUMNS,
  type BatchRow,
  type BatchTableRow,
  type ListBatchesQuery,
  type RoutedBatchRequest,
} from './batches.model';

const INSERT_CHUNK = 1000;

/** A finished item of `batch_items`, as the results endpoint reads it (RESULT_COLUMNS). */
export interface BatchResultRow {
  custom_id: string;
  status: 'succeeded' | 'failed';
  completion: string | null;
  /** The model requested; `result_model` is the one stored with the result. */
  model: string;
  result_model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
  error: string | null;
}

const RESULT_COLUMNS = [
  'i.custom_id',
  'i.status',
  'i.completion',
  'i.model',
  'i.result_model',
  'i.prompt_tokens',
  'i.completion_tokens',
  'i.total_tokens',
  'i.error',
];

export async function insertBatch(
  trx: Knex.Transaction,
  tenant: Tenant,
  batch: { id: string; webhookUrl: string | null; requests: RoutedBatchRequest[] },
): Promise<BatchRow> {
  const [row] = await tenantTable<BatchTableRow>(trx, tenant, 'batches')
    .insert({
      id: batch.id,
      ...tenantColumns(tenant),
      status: 'pending',
      request_count: batch.requests.length,
      webhook_url: batch.webhookUrl,
    })
    .returning<BatchRow[]>(BATCH_COLUMNS);
  for (let start = 0; start < batch.requests.length; start += INSERT_CHUNK) {
    const chunk = batch.requests.slice(start, start + INSERT_CHUNK);
    // Items belong to the batch just inserted for this tenant; they carry no owner of their own.
    await sharedTable(trx, 'batch_items').insert(
      chunk.map((request, index) => ({
        batch_id: batch.id,
        custom_id: request.custom_id,
        position: start + index,
        model: request.model,
        provider: request.provider,
        messages: JSON.stringify(request.messages),
        max_tokens: request.max_tokens ?? null,
        temperature: request.temperature ?? null,
      })),
    );
  }
  return row;
}

export async function listBatches(
  db: Knex,
  tenant: Tenant,
  query: ListBatchesQuery,
): Promise<{ rows: BatchRow[]; total: number }> {
  const scope = tenantTable<BatchTableRow>(db, tenant, 'batches');
  if (query.status) scope.where({ status: query.status });
  // Page and total from one snapshot.
  const rows = (await scope
    .clone()
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(query.limit)
    .offset(query.offset)
    .select([...BATCH_COLUMNS, db.raw('count(*) over () as full_count')])) as (BatchRow & { full_count: string })[];
  let total = rows.length ? Number(rows[0].full_count) : 0;
  // Past the last page: the total needs its own count.
  if (!rows.length && query.offset > 0)
    total = Number((await scope.clone().count<{ count: string }[]>({ count: '*' }))[0]?.count ?? 0);
  return { rows, total };
}

export async function findBatch(db: Knex, tenant: Tenant, batchId: string): Promise<BatchRow | null> {
  if (!isUuid(batchId)) return null;
  const row = await tenantTable<BatchTableRow>(db, tenant, 'batches')
    .where({ id: batchId })
    .first<BatchRow | undefined>(...BATCH_COLUMNS);
  return row ?? null;
}

/** Moves a pending or processing batch to cancelled; null when it was in another state (or absent). */
export async function cancelBatch(db: Knex, tenant: Tenant, batchId: string): Promise<BatchRow | null> {
  if (!isUuid(batchId)) return null;
  const [row] = await tenantTable<BatchTableRow>(db, tenant, 'batches')
    .where({ id: batchId })
    .whereIn('status', ['pending', 'processing'])
    .update({ status: 'cancelled', cancelled_at: db.fn.now() })
    .returning<BatchRow[]>(BATCH_COLUMNS);
  return row ?? null;
}

export async function listResults(db: Knex, tenant: Tenant, batchId: string): Promise<BatchResultRow[]> {
  return tenantTable(db, tenant, 'batches as b')
    .join('batch_items as i', 'b.id', 'i.batch_id')
    .where('b.id', batchId)
    .whereIn('i.status', ['succeeded', 'failed'])
    .orderBy('i.position')
    .select<BatchResultRow[]>(RESULT_COLUMNS);
}
