import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { writeEvent } from '@platform/events';
import type { Tenant } from '@platform/tenancy';
import { insertDelivery, subscribersOf, type ContentEvent } from './webhooks.repository';

/** The outbox event that drives one delivery attempt (routing key under `cms.`). */
export const WEBHOOK_ATTEMPT_EVENT = 'cms.webhook.attempt';

export interface WebhookAttemptData {
  deliveryId: string;
  /** The place of this attempt in its retry chain (1: the first); picks the next backoff delay. */
  step: number;
}

/**
 * Queues a delivery of `event` to every webhook of the project that subscribed to it, in the
 * transaction that made the change: a committed change is always announced, a rolled-back one
 * never is. The body is fixed here, so every attempt sends (and signs) the same bytes.
 */
export async function announceContentEvent(
  trx: Knex.Transaction,
  tenant: Tenant,
  event: ContentEvent,
  data: unknown,
): Promise<number> {
  const subscribers = await subscribersOf(trx, tenant, event);
  const occurredAt = new Date().toISOString();
  for (const webhook of subscribers) {
    const id = randomUUID();
    const body = JSON.stringify({ id, event, occurredAt, data });
    await insertDelivery(trx, tenant, { id, webhookId: webhook.id, event, url: webhook.url, body });
    await queueAttempt(trx, tenant, { deliveryId: id, step: 1 });
  }
  return subscribers.length;
}

export async function queueAttempt(
  trx: Knex.Transaction,
  tenant: Tenant,
  data: WebhookAttemptData,
  dueAt?: Date,
): Promise<void> {
  await writeEvent(trx, { type: WEBHOOK_ATTEMPT_EVENT, ...tenant, data }, dueAt ? { availableAt: dueAt } : {});
}
