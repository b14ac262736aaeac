import type { Knex } from 'knex';
import { isUuid, type Tenant } from '@platform/tenancy';
import type { ProviderType, Usage } from '../vendors/vendor-types';
import type { BatchRequestInput, BatchStatus, ListBatchesQuery } from './batches.schemas';

export interface BatchRecord {
  id: string;
  tenantId: string;
  projectId: string;
  status: BatchStatus;
  requestCount: number;
  completedCount: number;
  failedCount: number;
  webhookUrl: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export const BATCH_COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'status',
  'request_count',
  'completed_count',
  'failed_count',
  'webhook_url',
  'created_at',
  'completed_at',
];

export interface BatchRow {
  id: string;
  tenant_id: string;
  project_id: string;
  status: BatchStatus;
  request_count: number;
  completed_count: number;
  failed_count: number;
  webhook_url: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export function toBatchRecord(row: BatchRow): BatchRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    projectId: row.project_id,
    status: row.status,
    requestCount: row.request_count,
    completedCount: row.completed_count,
    failedCount: row.failed_count,
    webhookUrl: row.webhook_url,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

const INSERT_CHUNK = 1000;

export async function insertBatch(
  trx: Knex.Transaction,
  tenant: Tenant,
  batch: { id: string; webhookUrl: string | null; requests: (BatchRequestInput & { provider: ProviderType })[] },
): Promise<BatchRecord> {
  const [row] = await trx('batches')
    .insert({
      id: batch.id,
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
      status: 'pending',
      request_count: batch.requests.length,
      webhook_url: batch.webhookUrl,
    })
    .returning(BATCH_COLUMNS);
  for (let start = 0; start < batch.requests.length; start += INSERT_CHUNK) {
    const chunk = batch.requests.slice(start, start + INSERT_CHUNK);
    await trx('batch_items').insert(
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

function ownBatches(db: Knex, tenant: Tenant) {
  return db('batches').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });
}

export async function listBatches(
  db: Knex,
  tenant: Tenant,
  query: ListBatchesQuery,
): Promise<{ batches: BatchRecord[]; total: number }> {
  const scope = ownBatches(db, tenant);
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
  const row = await ownBatches(db, tenant).where({ id: batchId }).first(BATCH_COLUMNS);
  return row ? toBatchRecord(row as BatchRow) : null;
}

/** Moves a pending or processing batch to cancelled; null when it was in another state (or absent). */
export async function cancelBatch(db: Knex, tenant: Tenant, batchId: string): Promise<BatchRecord | null> {
  if (!isUuid(batchId)) return null;
  const [row] = await ownBatches(db, tenant)
    .where({ id: batchId })
    .whereIn('status', ['pending', 'processing'])
    .update({ status: 'cancelled', cancelled_at: db.fn.now() })
    .returning(BATCH_COLUMNS);
  return row ? toBatchRecord(row as BatchRow) : null;
}

export interface BatchResultRecord {
  customId: string;
  status: 'succeeded' | 'failed';
  completion: string | null;
  model: string;
  usage: Usage;
  error: string | null;
}

export async function listResults(db: Knex, tenant: Tenant, batchId: string): Promise<BatchResultRecord[]> {
  const rows = await db('batch_items as i')
    .join('batches as b', 'b.id', 'i.batch_id')
    .where({ 'b.id': batchId, 'b.tenant_id': tenant.tenantId, 'b.project_id': tenant.projectId })
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
