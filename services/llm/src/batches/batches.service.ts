import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withOutbox, type OutboxRelay } from '@platform/events';
import { errors, type ErrorDetail, type Tenant } from '@platform/tenancy';
import { checkMessagesFor } from '../completions/completions.service';
import { checkBatchBudget } from '../limits/limits.service';
import { configuredProviders, notConfigured } from '../providers/providers.service';
import { providerOfModel } from '../vendors/routing';
import type { ProviderType } from '../vendors/vendor-types';
import { BATCH_EVENTS, type BatchWorkData } from './batch-events';
import { toBatchResults, toBatchSummary, toCancelledBatch, toSubmittedBatch } from './batches.mapper';
import { cancelBatch, findBatch, insertBatch, listBatches, listResults } from './batches.repository';
import type { ListBatchesQuery } from './batches.model';
import type { SubmitBatchInput } from './batches.schemas';

/** Checks every request up front (models, vendors), stores the batch and queues it, all or nothing. */
export async function submitBatch(
  db: Knex,
  relay: OutboxRelay,
  limitsOn: boolean,
  tenant: Tenant,
  input: SubmitBatchInput,
) {
  const details: ErrorDetail[] = [];
  const needed = new Set<ProviderType>();
  const requests = input.requests.map((request, index) => {
    const provider = providerOfModel(request.model);
    if (!provider)
      details.push({ path: `requests.${index}.model`, message: `"${request.model}" is not a known model` });
    else {
      needed.add(provider);
      try {
        checkMessagesFor(provider, request, `requests.${index}.messages`);
      } catch (error) {
        details.push(...((error as { details?: ErrorDetail[] }).details ?? []));
      }
    }
    return { ...request, provider: provider as ProviderType };
  });
  if (details.length) throw errors.validation('Request validation failed', details.slice(0, 100));
  // Refused at once when the budget is already spent; each item is still admitted before its vendor call.
  if (limitsOn)
    await checkBatchBudget(
      db,
      tenant,
      requests.map((request) => request.model),
    );
  const configured = new Set(await configuredProviders(db, tenant));
  const missing = [...needed].filter((provider) => !configured.has(provider));
  if (missing.length) throw notConfigured(missing);

  const batch = await withOutbox(db, relay, async (trx, outbox) => {
    const stored = await insertBatch(trx, tenant, {
      id: randomUUID(),
      webhookUrl: input.webhook_url ?? null,
      requests,
    });
    await outbox.write<BatchWorkData>({ type: BATCH_EVENTS.submitted, ...tenant, data: { batchId: stored.id } });
    return stored;
  });
  return toSubmittedBatch(batch);
}

export async function getBatches(db: Knex, tenant: Tenant, query: ListBatchesQuery) {
  const { rows, total } = await listBatches(db, tenant, query);
  return { batches: rows.map(toBatchSummary), total, limit: query.limit, offset: query.offset };
}

export async function getBatch(db: Knex, tenant: Tenant, batchId: string) {
  const batch = await findBatch(db, tenant, batchId);
  if (!batch) throw errors.notFound('Batch');
  return toBatchSummary(batch);
}

export async function getBatchResults(db: Knex, tenant: Tenant, batchId: string) {
  const batch = await findBatch(db, tenant, batchId);
  if (!batch) throw errors.notFound('Batch');
  if (batch.status !== 'completed')
    throw errors.tooEarly(`Batch is ${batch.status}; results are available once it is completed`);
  const results = await listResults(db, tenant, batchId);
  return toBatchResults(batch, results);
}

/** Pending or processing batches stop taking new items; anything else is 409. */
export async function cancel(db: Knex, tenant: Tenant, batchId: string) {
  const cancelled = await cancelBatch(db, tenant, batchId);
  if (cancelled) return toCancelledBatch(cancelled);
  const batch = await findBatch(db, tenant, batchId);
  if (!batch) throw errors.notFound('Batch');
  throw errors.conflict(`Batch is ${batch.status} and cannot be cancelled`);
}

/** Whether the batch (still) exists for this tenant; the webhook deliverer skips a deleted one. */
export async function batchExists(db: Knex, tenant: Tenant, batchId: string): Promise<boolean> {
  return (await findBatch(db, tenant, batchId)) !== null;
}
