import type { EventEnvelope } from '@platform/events';
import type { ServiceDeps } from '@platform/runtime';
import type { LlmRuntime } from '../llm-runtime';
import { BATCH_EVENTS, type BatchFinishedData, type WebhookRetryData } from '../batches/batch-events';
import { findBatch } from '../batches/batches.repository';
import { WebhookRefusedError } from './ssrf-guard';
import {
  attemptHandled,
  markAttemptHandled,
  recordAttempt,
  scheduleRetry,
  type WebhookAttempt,
} from './webhook-attempts.repository';
import { postWebhook } from './webhook-sender';
import { signWebhook } from './webhook-signature';

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

type Outcome = Pick<WebhookAttempt, 'outcome' | 'statusCode' | 'error' | 'durationMs'>;

/**
 * Delivers the batch webhook from the `llm.batch.finished` outbox event. The id of that event
 * is the webhook id (X-Webhook-Id) on every attempt. A failed attempt is recorded together with
 * the next one, scheduled in the outbox after the configured backoff, in one transaction: a
 * crash at any point neither drops the webhook nor starts a second chain of retries.
 */
export async function startWebhookConsumer(deps: ServiceDeps, runtime: LlmRuntime): Promise<() => void> {
  let stopped = false;
  await deps.bus.subscribe({
    queue: runtime.config.webhookQueue,
    topics: [BATCH_EVENTS.finished, BATCH_EVENTS.webhookRetry],
    prefetch: 8,
    handler: async (event) => {
      // A stopped consumer hands the message back rather than dropping it.
      if (stopped) throw new Error('webhook consumer is stopping');
      await deliver(deps, runtime, event as EventEnvelope<BatchFinishedData | WebhookRetryData>);
    },
  });
  return () => {
    stopped = true;
  };
}

async function deliver(
  deps: ServiceDeps,
  runtime: LlmRuntime,
  event: EventEnvelope<BatchFinishedData | WebhookRetryData>,
): Promise<void> {
  const tenant = { tenantId: event.tenantId, projectId: event.projectId };
  const data = event.data;
  if (!data.webhookUrl) return;
  // Only batches of this service's own database (a shared exchange may carry others').
  if (!(await findBatch(deps.db, tenant, data.batchId))) return;
  if (await attemptHandled(deps.db, event.id)) return;
  const webhookId = 'webhookId' in data ? data.webhookId : event.id;
  const attempt = 'attempt' in data ? data.attempt : 1;

  const outcome = await attemptDelivery(deps, runtime, tenant.projectId, data, webhookId, attempt);
  const delays = runtime.config.webhookRetryDelaysMs;
  const retry = outcome.outcome === 'failed' && attempt <= delays.length;
  await deps.db.transaction(async (trx) => {
    if (!(await markAttemptHandled(trx, event.id))) return;
    await recordAttempt(trx, tenant, { batchId: data.batchId, webhookId, attempt, url: data.webhookUrl!, ...outcome });
    if (retry) {
      const next: WebhookRetryData = { ...data, webhookId, attempt: attempt + 1 };
      await scheduleRetry(trx, tenant, next, new Date(Date.now() + delays[attempt - 1]));
    }
  });
  if (outcome.outcome === 'failed' && !retry) {
    deps.logger.warn('webhook given up', { batchId: data.batchId, webhookId, attempts: attempt });
  }
}

async function attemptDelivery(
  deps: ServiceDeps,
  runtime: LlmRuntime,
  projectId: string,
  data: BatchFinishedData,
  webhookId: string,
  attempt: number,
): Promise<Outcome> {
  const secret = await deps.directory.webhookSecret(projectId);
  if (!secret) return { outcome: 'refused', statusCode: null, error: 'project has no webhook secret', durationMs: 0 };
  const body = webhookBody(data);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await postWebhook(
      data.webhookUrl!,
      body,
      {
        'x-webhook-signature': signWebhook(secret, body),
        'x-webhook-id': webhookId,
        'x-webhook-attempt': String(attempt),
        'user-agent': 'platform-llm-webhooks/1',
      },
      { timeoutMs: runtime.config.webhookTimeoutMs, allowedHosts: deps.config.webhookAllowedHosts },
    );
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return { outcome: 'delivered', statusCode: response.statusCode, error: null, durationMs: elapsed() };
    }
    return {
      outcome: 'failed',
      statusCode: response.statusCode,
      error: `receiver answered ${response.statusCode}`,
      durationMs: elapsed(),
    };
  } catch (error) {
    if (error instanceof WebhookRefusedError) {
      deps.logger.warn('webhook refused', { batchId: data.batchId, reason: error.message });
      return { outcome: 'refused', statusCode: null, error: error.message, durationMs: elapsed() };
    }
    return {
      outcome: 'failed',
      statusCode: null,
      error: (error as Error).message ?? String(error),
      durationMs: elapsed(),
    };
  }
}
