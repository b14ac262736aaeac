import type { EventEnvelope } from '@platform/events';
import type { ServiceDeps } from '@platform/runtime';
import type { ProjectSlots } from '@platform/limits';
import type { LlmConfig } from '../config';
import { BATCH_EVENTS, type BatchFinishedData, type WebhookRetryData } from '../batches/batch-events';
import { batchExists } from '../batches/batches.service';
import { attemptHandled, markAttemptHandled, recordAttempt, scheduleRetry } from './webhook-attempts.repository';
import { attemptSignedDelivery, nextAttemptAt, type AttemptResult } from '@platform/webhooks';

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

/**
 * Delivers the batch webhook from the `llm.batch.finished` outbox event. The id of that event
 * is the webhook id (X-Webhook-Id) on every attempt. A failed attempt is recorded together with
 * the next one, scheduled in the outbox after the configured backoff, in one transaction: a
 * crash at any point neither drops the webhook nor starts a second chain of retries.
 */
export async function startWebhookConsumer(
  deps: ServiceDeps,
  config: LlmConfig,
  slots: ProjectSlots,
): Promise<() => void> {
  let stopped = false;
  await deps.bus.subscribe({
    queue: config.webhookQueue,
    topics: [BATCH_EVENTS.finished, BATCH_EVENTS.webhookRetry],
    prefetch: 8,
    handler: async (event) => {
      // A stopped consumer hands the message back rather than dropping it.
      if (stopped) throw new Error('webhook consumer is stopping');
      await deliver(deps, config, slots, event as EventEnvelope<BatchFinishedData | WebhookRetryData>);
    },
  });
  return () => {
    stopped = true;
  };
}

async function deliver(
  deps: ServiceDeps,
  config: LlmConfig,
  slots: ProjectSlots,
  event: EventEnvelope<BatchFinishedData | WebhookRetryData>,
): Promise<void> {
  const tenant = { tenantId: event.tenantId, projectId: event.projectId };
  const data = event.data;
  if (!data.webhookUrl) return;
  // Only batches of this service's own database (a shared exchange may carry others').
  if (!(await batchExists(deps.db, tenant, data.batchId))) return;
  if (await attemptHandled(deps.db, event.id)) return;
  const webhookId = 'webhookId' in data ? data.webhookId : event.id;
  const attempt = 'attempt' in data ? data.attempt : 1;

  const release = slots.tryAcquire(tenant.projectId);
  if (!release) {
    // This project's share of the slots is busy (slow receivers): the same attempt, a little later.
    await deps.db.transaction(async (trx) => {
      if (!(await markAttemptHandled(trx, event.id))) return;
      const again: WebhookRetryData = { ...data, webhookId, attempt };
      await scheduleRetry(trx, tenant, again, new Date(Date.now() + deps.config.webhooks.slotRetryMs));
    });
    return;
  }
  let outcome: AttemptResult;
  try {
    outcome = await attemptDelivery(deps, config, tenant.projectId, data, webhookId, attempt);
  } finally {
    release();
  }
  const retryAt = outcome.outcome === 'failed' ? nextAttemptAt(config.webhookRetryDelaysMs, attempt) : null;
  await deps.db.transaction(async (trx) => {
    if (!(await markAttemptHandled(trx, event.id))) return;
    await recordAttempt(trx, tenant, { batchId: data.batchId, webhookId, attempt, url: data.webhookUrl!, ...outcome });
    if (retryAt) await scheduleRetry(trx, tenant, { ...data, webhookId, attempt: attempt + 1 }, retryAt);
  });
  if (outcome.outcome === 'failed' && !retryAt) {
    deps.logger.warn('webhook given up', { batchId: data.batchId, webhookId, attempts: attempt });
  }
}

async function attemptDelivery(
  deps: ServiceDeps,
  config: LlmConfig,
  projectId: string,
  data: BatchFinishedData,
  webhookId: string,
  attempt: number,
): Promise<AttemptResult> {
  const result = await attemptSignedDelivery(
    {
      url: data.webhookUrl!,
      body: webhookBody(data),
      webhookId,
      attempt,
      secret: await deps.directory.webhookSecret(projectId),
      userAgent: 'platform-llm-webhooks/1',
    },
    {
      timeoutMs: config.webhookTimeoutMs,
      deadlineMs: deps.config.webhooks.deadlineMs,
      maxResponseBytes: deps.config.webhooks.maxResponseBytes,
      allowedHosts: config.webhookAllowedHosts,
    },
  );
  if (result.outcome === 'refused')
    deps.logger.warn('webhook refused', { batchId: data.batchId, reason: result.error });
  return result;
}
