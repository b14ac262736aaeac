import type { Knex } from 'knex';
import { withOutbox, type EventBus, type EventEnvelope, type OutboxWriter } from '@platform/events';
import type { Tenant } from '@platform/tenancy';
import { attemptSignedDelivery, nextAttemptAt, type AttemptResult } from './delivery-attempt';
import { attemptHandled, markAttemptHandled } from './handled-attempts';
import type { PostWebhookOptions } from './webhook-sender';

/** One attempt as the service found it: what to send and where it stands in its retry chain. */
export interface PendingAttempt {
  url: string;
  /** The exact bytes signed and sent; the same on every attempt of one webhook. */
  body: string;
  /** X-Webhook-Id, kept across the retries of one webhook. */
  webhookId: string;
  /** X-Webhook-Attempt. */
  attempt: number;
  /** The place of this attempt in its retry chain (1: the first); picks the next backoff delay. */
  step: number;
}

export interface WebhookConsumerDeps {
  db: Knex;
  bus: EventBus;
  relay: { kick(): void };
  directory: { webhookSecret(projectId: string): Promise<string | null> };
  /** The platform's bounds of every attempt, and the wait of one whose project has no free slot. */
  config: { webhooks: { deadlineMs: number; maxResponseBytes: number; slotRetryMs: number } };
}

/** What one service's webhooks differ in; the skeleton around an attempt is the same for all. */
export interface WebhookConsumer<Data, Delivery extends PendingAttempt> {
  /** The key its handled attempts are kept under in `processed_events`. */
  consumer: string;
  queue: string;
  topics: string[];
  prefetch: number;
  userAgent: string;
  /** The process's delivery slots, shared fairly by the projects. */
  slots: { tryAcquire(projectId: string): (() => void) | null };
  /** One delay per retry; a failed attempt after the last is given up. */
  retryDelaysMs: number[];
  /** The service's own bounds of an attempt (the platform's come with the deps). */
  post: Pick<PostWebhookOptions, 'timeoutMs' | 'allowedHosts'>;
  /** The attempt the event is about; null when there is nothing to send or it is not this service's. */
  find(db: Knex, tenant: Tenant, event: EventEnvelope<Data>): Promise<Delivery | null>;
  /** Puts the attempt at `step` of the delivery in the outbox, due at `dueAt`. */
  schedule(outbox: OutboxWriter, tenant: Tenant, delivery: Delivery, step: number, dueAt: Date): Promise<void>;
  /** Records the attempt's outcome; `retryAt` is when the next one is due, null when none follows. */
  record(
    trx: Knex.Transaction,
    tenant: Tenant,
    delivery: Delivery,
    result: AttemptResult,
    retryAt: Date | null,
  ): Promise<void>;
  /** Told of every attempt once it is recorded (for the log). */
  attempted?(delivery: Delivery, result: AttemptResult, retryAt: Date | null): void;
}

/**
 * Carries out webhook attempts from the outbox. An attempt is made outside any transaction (it
 * waits on a customer's server); its outcome is recorded together with the next attempt,
 * scheduled after the backoff, in one transaction, so a crash at any point neither drops the
 * webhook nor starts a second chain of retries. A project whose share of the slots is busy has
 * its attempt put back for a moment instead. Returns the function that stops it.
 */
export async function startWebhookConsumer<Data, Delivery extends PendingAttempt>(
  deps: WebhookConsumerDeps,
  webhooks: WebhookConsumer<Data, Delivery>,
): Promise<() => void> {
  let stopped = false;
  await deps.bus.subscribe({
    queue: webhooks.queue,
    topics: webhooks.topics,
    prefetch: webhooks.prefetch,
    handler: async (event) => {
      // A stopped consumer hands the message back rather than dropping it.
      if (stopped) throw new Error(`webhook consumer ${webhooks.consumer} is stopping`);
      await deliver(deps, webhooks, event as EventEnvelope<Data>);
    },
  });
  return () => {
    stopped = true;
  };
}

async function deliver<Data, Delivery extends PendingAttempt>(
  deps: WebhookConsumerDeps,
  webhooks: WebhookConsumer<Data, Delivery>,
  event: EventEnvelope<Data>,
): Promise<void> {
  const tenant = { tenantId: event.tenantId, projectId: event.projectId };
  const delivery = await webhooks.find(deps.db, tenant, event);
  if (!delivery || (await attemptHandled(deps.db, webhooks.consumer, event.id))) return;

  const release = webhooks.slots.tryAcquire(tenant.projectId);
  if (!release) {
    await withOutbox(deps.db, deps.relay, async (trx, outbox) => {
      if (!(await markAttemptHandled(trx, webhooks.consumer, event.id))) return;
      const again = new Date(Date.now() + deps.config.webhooks.slotRetryMs);
      await webhooks.schedule(outbox, tenant, delivery, delivery.step, again);
    });
    return;
  }
  let result: AttemptResult;
  try {
    result = await attemptSignedDelivery(
      {
        url: delivery.url,
        body: delivery.body,
        webhookId: delivery.webhookId,
        attempt: delivery.attempt,
        secret: await deps.directory.webhookSecret(tenant.projectId),
        userAgent: webhooks.userAgent,
      },
      {
        ...webhooks.post,
        deadlineMs: deps.config.webhooks.deadlineMs,
        maxResponseBytes: deps.config.webhooks.maxResponseBytes,
      },
    );
  } finally {
    release();
  }
  const retryAt = result.outcome === 'failed' ? nextAttemptAt(webhooks.retryDelaysMs, delivery.step) : null;
  await withOutbox(deps.db, deps.relay, async (trx, outbox) => {
    if (!(await markAttemptHandled(trx, webhooks.consumer, event.id))) return;
    await webhooks.record(trx, tenant, delivery, result, retryAt);
    if (retryAt) await webhooks.schedule(outbox, tenant, delivery, delivery.step + 1, retryAt);
  });
  webhooks.attempted?.(delivery, result, retryAt);
}
