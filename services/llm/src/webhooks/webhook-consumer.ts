import type { EventEnvelope } from '@platform/events';
import type { ServiceDeps } from '@platform/runtime';
import type { LlmRuntime } from '../llm-runtime';
import { BATCH_EVENTS, type BatchFinishedData } from '../batches/batch-events';
import { findBatch } from '../batches/batches.repository';
import { WebhookRefusedError } from './ssrf-guard';
import { attemptsSoFar, recordAttempt, type WebhookAttempt } from './webhook-attempts.repository';
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

/**
 * Delivers the batch webhook from the `llm.batch.finished` outbox event. A failed attempt
 * throws so the broker retries after the configured backoff; every attempt is recorded, and
 * the webhook id (the event id) stays the same across retries.
 */
export async function startWebhookConsumer(deps: ServiceDeps, runtime: LlmRuntime): Promise<() => void> {
  const delays = runtime.config.webhookRetryDelaysMs;
  let stopped = false;
  await deps.bus.subscribe({
    queue: runtime.config.webhookQueue,
    topics: [BATCH_EVENTS.finished],
    prefetch: 8,
    maxAttempts: delays.length + 1,
    retryDelaysMs: delays,
    handler: async (event) => {
      // A stopped consumer hands the message back rather than dropping it.
      if (stopped) throw new Error('webhook consumer is stopping');
      await deliver(deps, runtime, event as EventEnvelope<BatchFinishedData>);
    },
  });
  return () => {
    stopped = true;
  };
}

async function deliver(deps: ServiceDeps, runtime: LlmRuntime, event: EventEnvelope<BatchFinishedData>): Promise<void> {
  const tenant = { tenantId: event.tenantId, projectId: event.projectId };
  const data = event.data;
  if (!data.webhookUrl) return;
  // Only batches of this service's own database (a shared exchange may carry others').
  if (!(await findBatch(deps.db, tenant, data.batchId))) return;
  const previous = await attemptsSoFar(deps.db, tenant, event.id);
  if (previous.settled) return;
  const attempt = previous.count + 1;
  const maxAttempts = runtime.config.webhookRetryDelaysMs.length + 1;
  const base = { batchId: data.batchId, webhookId: event.id, attempt, url: data.webhookUrl };
  const record = (result: Omit<WebhookAttempt, keyof typeof base>) => recordAttempt(deps.db, tenant, { ...base, ...result });

  const secret = await deps.directory.webhookSecret(tenant.projectId);
  if (!secret) {
    await record({ outcome: 'refused', statusCode: null, error: 'project has no webhook secret', durationMs: 0 });
    return;
  }
  const body = webhookBody(data);
  const started = performance.now();
  let failure: string;
  try {
    const response = await postWebhook(
      data.webhookUrl,
      body,
      {
        'x-webhook-signature': signWebhook(secret, body),
        'x-webhook-id': event.id,
        'x-webhook-attempt': String(attempt),
        'user-agent': 'platform-llm-webhooks/1',
      },
      { timeoutMs: runtime.config.webhookTimeoutMs, allowedHosts: deps.config.webhookAllowedHosts },
    );
    const durationMs = Math.round(performance.now() - started);
    if (response.statusCode >= 200 && response.statusCode < 300) {
      await record({ outcome: 'delivered', statusCode: response.statusCode, error: null, durationMs });
      return;
    }
    failure = `receiver answered ${response.statusCode}`;
    await record({ outcome: 'failed', statusCode: response.statusCode, error: failure, durationMs });
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    if (error instanceof WebhookRefusedError) {
      deps.logger.warn('webhook refused', { batchId: data.batchId, reason: error.message });
      await record({ outcome: 'refused', statusCode: null, error: error.message, durationMs });
      return;
    }
    failure = (error as Error).message ?? String(error);
    await record({ outcome: 'failed', statusCode: null, error: failure, durationMs });
  }
  if (attempt >= maxAttempts) {
    deps.logger.warn('webhook given up', { batchId: data.batchId, webhookId: event.id, attempts: attempt });
    return;
  }
  throw new Error(`webhook attempt ${attempt} failed: ${failure}`);
}
