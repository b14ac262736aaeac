import { toIso } from '@platform/tenancy';
import type { BatchFinishedData } from './batch-events';
import type { BatchRow } from './batches.model';
import type { BatchResultRow } from './batches.repository';

/** The API shapes of a batch: the only place a stored batch becomes a response (or an event). */

export function toBatchSummary(batch: BatchRow) {
  return {
    batchId: batch.id,
    status: batch.status,
    requestCount: batch.request_count,
    completedCount: batch.completed_count,
    failedCount: batch.failed_count,
    createdAt: toIso(batch.created_at),
    completedAt: toIso(batch.completed_at),
  };
}

export function toSubmittedBatch(batch: BatchRow) {
  return {
    batchId: batch.id,
    status: batch.status,
    requestCount: batch.request_count,
    createdAt: toIso(batch.created_at),
  };
}

export function toBatchResults(batch: BatchRow, results: BatchResultRow[]) {
  return {
    batchId: batch.id,
    status: batch.status,
    results: results.map((r) => ({
      custom_id: r.custom_id,
      status: r.status,
      completion: r.completion,
      // The model stored with the result (the vendor's); the one requested when none was stored.
      model: r.result_model ?? r.model,
      usage: {
        prompt_tokens: r.prompt_tokens ?? 0,
        completion_tokens: r.completion_tokens ?? 0,
        total_tokens: r.total_tokens ?? 0,
      },
      ...(r.error ? { error: r.error } : {}),
    })),
  };
}

export function toCancelledBatch(batch: BatchRow) {
  return {
    batchId: batch.id,
    status: batch.status,
    message: 'Batch cancelled; items not yet started will not run',
  };
}

/** The `llm.batch.finished` event of a batch that reached completed or failed (the webhook's source). */
export function toBatchFinishedData(batch: BatchRow): BatchFinishedData {
  return {
    batchId: batch.id,
    status: batch.status === 'failed' ? 'failed' : 'completed',
    requestCount: batch.request_count,
    completedCount: batch.completed_count,
    failedCount: batch.failed_count,
    completedAt: toIso(batch.completed_at)!,
    webhookUrl: batch.webhook_url,
  };
}

export type BatchSummary = ReturnType<typeof toBatchSummary>;
export type SubmittedBatch = ReturnType<typeof toSubmittedBatch>;
export type BatchResults = ReturnType<typeof toBatchResults>;
export type CancelledBatch = ReturnType<typeof toCancelledBatch>;
