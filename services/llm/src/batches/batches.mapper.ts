import { toIso } from '@platform/tenancy';
import type { BatchRecord, BatchResultRecord } from './batches.model';

/** The API shapes of a batch: the only place a stored batch becomes a response. */

export function toBatchSummary(batch: BatchRecord) {
  return {
    batchId: batch.id,
    status: batch.status,
    requestCount: batch.requestCount,
    completedCount: batch.completedCount,
    failedCount: batch.failedCount,
    createdAt: toIso(batch.createdAt),
    completedAt: toIso(batch.completedAt),
  };
}

export function toSubmittedBatch(batch: BatchRecord) {
  return {
    batchId: batch.id,
    status: batch.status,
    requestCount: batch.requestCount,
    createdAt: toIso(batch.createdAt),
  };
}

export function toBatchResults(batch: BatchRecord, results: BatchResultRecord[]) {
  return {
    batchId: batch.id,
    status: batch.status,
    results: results.map((r) => ({
      custom_id: r.customId,
      status: r.status,
      completion: r.completion,
      model: r.model,
      usage: r.usage,
      ...(r.error ? { error: r.error } : {}),
    })),
  };
}

export function toCancelledBatch(batch: BatchRecord) {
  return {
    batchId: batch.id,
    status: batch.status,
    message: 'Batch cancelled; items not yet started will not run',
  };
}

export type BatchSummary = ReturnType<typeof toBatchSummary>;
export type SubmittedBatch = ReturnType<typeof toSubmittedBatch>;
export type BatchResults = ReturnType<typeof toBatchResults>;
export type CancelledBatch = ReturnType<typeof toCancelledBatch>;
