import type { ServiceDeps } from '@platform/runtime';
import { startWebhookConsumer, type PendingAttempt } from '@platform/webhooks';
import type { CmsShared } from '../cms-shared';
import { queueAttempt, WEBHOOK_ATTEMPT_EVENT, type WebhookAttemptData } from './content-events';
import { findDelivery, recordAttempt, type DeliveryStatus } from './webhooks.repository';

interface ContentDelivery extends PendingAttempt {
  deliveryId: string;
}

/**
 * Carries out content webhook attempts from the outbox: each `cms.webhook.attempt` event names a
 * stored delivery (its URL and body fixed when the change was made) and its step in the retry chain.
 */
export function startWebhookDelivery(deps: ServiceDeps, runtime: CmsShared): Promise<() => void> {
  const { config } = runtime;
  return startWebhookConsumer<WebhookAttemptData, ContentDelivery>(deps, {
    consumer: 'cms.webhooks',
    queue: config.webhookQueue,
    topics: [WEBHOOK_ATTEMPT_EVENT],
    prefetch: config.webhookPrefetch,
    userAgent: 'platform-cms-webhooks/1',
    slots: runtime.webhookSlots,
    retryDelaysMs: config.webhookRetryDelaysMs,
    post: {
      timeoutMs: config.webhookTimeoutMs,
      allowedHosts: config.webhookAllowedHosts,
    },
    async find(db, tenant, event) {
      // Only deliveries of this service's own database (a shared exchange may carry others').
      const delivery = await findDelivery(db, tenant, event.data.deliveryId);
      if (!delivery) return null;
      return {
        deliveryId: delivery.id,
        url: delivery.url,
        body: delivery.body,
        webhookId: delivery.id,
        attempt: delivery.attempt_count + 1,
        step: event.data.step,
      };
    },
    schedule: (outbox, tenant, delivery, step, dueAt) =>
      queueAttempt(outbox, tenant, { deliveryId: delivery.deliveryId, step }, dueAt),
    async record(trx, tenant, delivery, result, retryAt) {
      const status: DeliveryStatus = result.outcome === 'failed' && retryAt ? 'pending' : result.outcome;
      await recordAttempt(trx, tenant, delivery.deliveryId, result, status);
    },
    attempted(delivery, result, retryAt) {
      if (result.outcome === 'delivered') return;
      deps.logger.warn('content webhook not delivered', {
        deliveryId: delivery.deliveryId,
        outcome: result.outcome,
        retryAt,
        error: result.error,
      });
    },
  });
}
