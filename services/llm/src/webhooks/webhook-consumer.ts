import type { ServiceDeps } from '@platform/runtime';
import type { ProjectSlots } from '@platform/limits';
import { startWebhookConsumer, type PendingAttempt } from '@platform/webhooks';
import type { LlmConfig } from '../config';
import { BATCH_EVENTS, type BatchFinishedData, type WebhookRetryData } from '../batches/batch-events';
import { batchExists } from '../batches/batches.service';
import { recordAttempt, scheduleRetry } from './webhook-attempts.repository';

/** The body of the batch webhook (RESOLUTIONS 6); the same bytes on every retry. */
export function webhookBody(data: BatchFinishedData): string {
  return JSON.stringify({
    event: 'batch.completed',
    batchId: data.batchId,
    status: data.status,
    requestCount: data.requestCount,
    completedCount: data.completedCount,
    failedCount: data.failedCount,
    completedAt: data.completedAt,
  });
}

interface BatchWebhook extends PendingAttempt {
  data: BatchFinishedData;
}

/**
 * Delivers the batch webhook from the `llm.batch.finished` outbox event. The id of that event
 * is the webhook id (X-Webhook-Id) on every attempt; each retry is an `llm.batch.webhook-retry`
 * event carrying that id and its attempt number.
 */
export function startBatchWebhooks(deps: ServiceDeps, config: LlmConfig, slots: ProjectSlots): Promise<() => void> {
  return startWebhookConsumer<BatchFinishedData | WebhookRetryData, BatchWebhook>(deps, {
    consumer: 'llm.batch-webhooks',
    queue: config.webhookQueue,
    topics: [BATCH_EVENTS.finished, BATCH_EVENTS.webhookRetry],
    prefetch: 8,
    userAgent: 'platform-llm-webhooks/1',
    slots,
    retryDelaysMs: config.webhookRetryDelaysMs,
    post: {
      timeoutMs: config.webhookTimeoutMs,
      allowedHosts: config.webhookAllowedHosts,
    },
    async find(db, tenant, event) {
      const data = event.data;
      if (!data.webhookUrl) return null;
      // Only batches of this service's own database (a shared exchange may carry others').
      if (!(await batchExists(db, tenant, data.batchId))) return null;
      const attempt = 'attempt' in data ? data.attempt : 1;
      const webhookId = 'webhookId' in data ? data.webhookId : event.id;
      return { url: data.webhookUrl, body: webhookBody(data), webhookId, attempt, step: attempt, data };
    },
    schedule: (outbox, tenant, webhook, step, dueAt) =>
      scheduleRetry(outbox, tenant, { ...webhook.data, webhookId: webhook.webhookId, attempt: step }, dueAt),
    record: (trx, tenant, webhook, result) =>
      recordAttempt(trx, tenant, {
        batchId: webhook.data.batchId,
        webhookId: webhook.webhookId,
        attempt: webhook.attempt,
        url: webhook.url,
        ...result,
      }),
    attempted(webhook, result, retryAt) {
      const { batchId } = webhook.data;
      if (result.outcome === 'refused') deps.logger.warn('webhook refused', { batchId, reason: result.error });
      if (result.outcome === 'failed' && !retryAt) {
        deps.logger.warn('webhook given up', { batchId, webhookId: webhook.webhookId, attempts: webhook.attempt });
      }
    },
  });
}
