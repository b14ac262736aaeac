import type { Knex } from 'knex';
import { ownerColumns, sharedTable, tenantTable } from '@platform/db';
import { isUuid, type Tenant } from '@platform/tenancy';
import {
  BATCH_COLUMNS,
  toBatchRecord,
  type BatchRecord,
  type BatchResultRecord,
  type BatchRow,
  type BatchTableRow,
  type ListBatchesQuery,
  type RoutedBatchRequest,
} from './batches.model';

const INSERT_CHUNK = 1000;

export async function insertBatch(
  trx: Knex.Transaction,
  tenant: Tenant,
  batch: { id: string; webhookUrl: string | null; requests: RoutedBatchRequest[] },
): Promise<BatchRecord> {
  const [row] = await tenantTable<BatchTableRow>(trx, tenant, 'batches')
    .insert({
      id: batch.id,
      ...ownerColumns(tenant),
      status: 'pending',
      request_count: batch.requests.length,
      webhook_url: batch.webhookUrl,
    })
    .returning(BATCH_COLUMNS);
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
  return toBatchRecord(row);
}

export async function listBatches(
  db: Knex,
  tenant: Tenant,
  query: ListBatchesQuery,
): Promise<{ batches: BatchRecord[]; total: number }> {
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
  return { batches: rows.map(toBatchRecord), total };
}

export async function findBatch(db: Knex, tenant: Tenant, batchId: string): Promise<BatchRecord | null> {
  if (!isUuid(batchId)) return null;
  const row = await tenantTable<BatchTableRow>(db, tenant, 'batches')
    .where({ id: batchId })
    .first(...BATCH_COLUMNS);
  return row ? toBatchRecord(row as BatchRow) : null;
}

/** Moves a pending or processing batch to cancelled; null when it was in another state (or absent). */
export async function cancelBatch(db: Knex, tenant: Tenant, batchId: string): Promise<BatchRecord | null> {
  if (!isUuid(batchId)) return null;
  const [row] = await tenantTable<BatchTableRow>(db, tenant, 'batches')
    .where({ id: batchId })
    .whereIn('status', ['pending', 'processing'])
    .update({ status: 'cancelled', cancelled_at: db.fn.now() })
    .returning(BATCH_COLUMNS);
  return row ? toBatchRecord(row as BatchRow) : null;
}

export async function listResults(db: Knex, tenant: Tenant, batchId: string): Promise<BatchResultRecord[]> {
  const rows = await tenantTable(db, tenant, 'batches as b')
    .join('batch_items as i', 'b.id', 'i.batch_id')
    .where('b.id', batchId)
    .whereIn('i.status', ['succeeded', 'failed'])
    .orderBy('i.position')
    .select(
      'i.custom_id',
      'i.status',
      'i.completion',
      'i.model',
      'i.result_model',
      'i.prompt_tokens',
      'i.completion_tokens',
      'i.total_tokens',
      'i.error',
    );
  return rows.map((row) => ({
    customId: row.custom_id,
    status: row.status,
    completion: row.completion,
    model: row.result_model ?? row.model,
    usage: {
      prompt_tokens: row.prompt_tokens ?? 0,
      completion_tokens: row.completion_tokens ?? 0,
      total_tokens: row.total_tokens ?? 0,
    },
    error: row.error,
  }));
}
