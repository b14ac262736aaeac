import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { OutboxWriter } from '@platform/events';
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
 * Queues a delivery of each of `events` to every webhook of the project that subscribed to it,
 * in the transaction that made the change: a committed change is always announced, a
 * rolled-back one never is. The body is fixed here, so every attempt sends (and signs) the same
 * bytes. One query finds the subscribers of all the events.
 */
export async function announceContentEvents(
  trx: Knex.Transaction,
  outbox: OutboxWriter,
  tenant: Tenant,
  events: ContentEvent[],
  data: unknown,
): Promise<number> {
  if (!events.length) return 0;
  const webhooks = await subscribersOf(trx, tenant, events);
  const occurredAt = new Date().toISOString();
  let queued = 0;
  for (const event of events) {
    for (const webhook of webhooks.filter((w) => w.events.includes(event))) {
      const id = randomUUID();
      const body = JSON.stringify({ id, event, occurredAt, data });
      await insertDelivery(trx, tenant, { id, webhookId: webhook.id, event, url: webhook.url, body });
      await queueAttempt(outbox, tenant, { deliveryId: id, step: 1 });
      queued++;
    }
  }
  return queued;
}

export async function queueAttempt(
  outbox: OutboxWriter,
  tenant: Tenant,
  data: WebhookAttemptData,
  dueAt?: Date,
): Promise<void> {
  await outbox.write({ type: WEBHOOK_ATTEMPT_EVENT, ...tenant, data }, dueAt ? { availableAt: dueAt } : {});
}
