import { withOutbox, type EventEnvelope } from '@platform/events';
import type { ServiceDeps } from '@platform/runtime';
import { attemptHandled, attemptSignedDelivery, markAttemptHandled, nextAttemptAt } from '@platform/webhooks';
import type { CmsShared } from '../cms-shared';
import { queueAttempt, WEBHOOK_ATTEMPT_EVENT, type WebhookAttemptData } from './content-events';
import { findDelivery, recordAttempt, type DeliveryStatus } from './webhooks.repository';

const CONSUMER = 'cms.webhooks';

/**
 * Carries out content webhook attempts from the outbox. A failed attempt is recorded together
 * with the next one, scheduled after the configured backoff, in one transaction; a project
 * whose share of the delivery slots is busy has its attempt put back for a moment instead.
 */
export async function startWebhookDelivery(deps: ServiceDeps, runtime: CmsShared): Promise<() => void> {
  let stopped = false;
  await deps.bus.subscribe({
    queue: runtime.config.webhookQueue,
    topics: [WEBHOOK_ATTEMPT_EVENT],
    prefetch: runtime.config.webhookPrefetch,
    handler: async (event) => {
      // A stopped consumer hands the message back rather than dropping it.
      if (stopped) throw new Error('webhook delivery is stopping');
      await attempt(deps, runtime, event as EventEnvelope<WebhookAttemptData>);
    },
  });
  return () => {
    stopped = true;
  };
}

async function attempt(deps: ServiceDeps, runtime: CmsShared, event: EventEnvelope<WebhookAttemptData>) {
  const tenant = { tenantId: event.tenantId, projectId: event.projectId };
  const { deliveryId, step } = event.data;
  // Only deliveries of this service's own database (a shared exchange may carry others').
  const delivery = await findDelivery(deps.db, tenant, deliveryId);
  if (!delivery || (await attemptHandled(deps.db, CONSUMER, event.id))) return;

  const release = runtime.webhookSlots.tryAcquire(tenant.projectId);
  if (!release) {
    await withOutbox(deps.db, deps.relay, async (trx, outbox) => {
      if (!(await markAttemptHandled(trx, CONSUMER, event.id))) return;
      await queueAttempt(outbox, tenant, event.data, new Date(Date.now() + deps.config.webhooks.slotRetryMs));
    });
    return;
  }
  let result;
  try {
    result = await attemptSignedDelivery(
      {
        url: delivery.url,
        body: delivery.body,
        webhookId: delivery.id,
        attempt: delivery.attempt_count + 1,
        secret: await deps.directory.webhookSecret(tenant.projectId),
        userAgent: 'platform-cms-webhooks/1',
      },
      {
        timeoutMs: runtime.config.webhookTimeoutMs,
        deadlineMs: deps.config.webhooks.deadlineMs,
        maxResponseBytes: deps.config.webhooks.maxResponseBytes,
        allowedHosts: runtime.config.webhookAllowedHosts,
      },
    );
  } finally {
    release();
  }
  const retryAt = result.outcome === 'failed' ? nextAttemptAt(runtime.config.webhookRetryDelaysMs, step) : null;
  const status: DeliveryStatus = result.outcome === 'failed' && retryAt ? 'pending' : result.outcome;
  await withOutbox(deps.db, deps.relay, async (trx, outbox) => {
    if (!(await markAttemptHandled(trx, CONSUMER, event.id))) return;
    await recordAttempt(trx, tenant, delivery.id, result, status);
    if (retryAt) await queueAttempt(outbox, tenant, { deliveryId, step: step + 1 }, retryAt);
  });
  if (result.outcome !== 'delivered') {
    deps.logger.warn('content webhook not delivered', {
      deliveryId,
      outcome: result.outcome,
      retryAt,
      error: result.error,
    });
  }
}
