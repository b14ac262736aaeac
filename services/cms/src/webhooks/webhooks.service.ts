import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withOutbox } from '@platform/events';
import { errors, isUuid, type Page, type Tenant } from '@platform/tenancy';
import { assertTargetAllowed, WebhookRefusedError } from '@platform/webhooks';
import type { CmsConfig } from '../config';
import { queueAttempt } from './content-events';
import { toDelivery, toWebhook, type Webhook, type WebhookDelivery } from './webhooks.mapper';
import * as repo from './webhooks.repository';
import type { WebhookRow } from './webhooks.repository';
import type { CreateWebhookInput } from './webhooks.schemas';

export type WebhookLimits = Pick<CmsConfig, 'webhooksPerProject' | 'webhookAllowedHosts'>;

/** Subscribes a URL to content events, within the project's limit. */
export async function createWebhook(
  db: Knex,
  limits: WebhookLimits,
  tenant: Tenant,
  input: CreateWebhookInput,
): Promise<Webhook> {
  const url = new URL(input.url);
  // Plain HTTP only to hosts the operator allowed (local receivers in tests and staging).
  if (url.protocol !== 'https:' && !limits.webhookAllowedHosts.includes(url.hostname)) {
    throw errors.validation('The webhook URL must use HTTPS', [{ path: 'url', message: 'url must be an https URL' }]);
  }
  try {
    // Literal private addresses are refused now; names are checked on each attempt (DNS may change).
    assertTargetAllowed(url, limits.webhookAllowedHosts);
  } catch (error) {
    if (!(error instanceof WebhookRefusedError)) throw error;
    throw errors.validation('The webhook URL is not allowed', [{ path: 'url', message: error.message }]);
  }
  const perProject = limits.webhooksPerProject;
  // Count and insert under the project's lock, so that concurrent creates cannot pass the limit together.
  const row = await db.transaction(async (trx) => {
    await repo.lockProjectWebhooks(trx, tenant);
    if ((await repo.countWebhooks(trx, tenant)) >= perProject) {
      throw errors.validation(`A project can have at most ${perProject} webhooks`, [
        { path: 'url', message: `at most ${perProject} webhooks per project` },
      ]);
    }
    return repo.insertWebhook(trx, tenant, { id: randomUUID(), url: input.url, events: input.events });
  });
  return toWebhook(row);
}

export async function listWebhooks(db: Knex, tenant: Tenant): Promise<{ webhooks: Webhook[] }> {
  return { webhooks: (await repo.listWebhooks(db, tenant)).map(toWebhook) };
}

export async function removeWebhook(db: Knex, tenant: Tenant, id: string): Promise<void> {
  if (!isUuid(id) || !(await repo.deleteWebhook(db, tenant, id))) throw errors.notFound('Webhook');
}

export async function listDeliveries(db: Knex, tenant: Tenant, webhookId: string, page: Page) {
  await findWebhook(db, tenant, webhookId);
  const { rows, total, attempts } = await repo.listDeliveries(db, tenant, webhookId, page);
  return {
    deliveries: rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((a) => a.delivery_id === row.id),
      ),
    ),
    total,
    limit: page.limit,
    offset: page.offset,
  };
}

/** A new chain of attempts for a delivery, whatever became of the earlier ones: same id, same body. */
export async function redeliver(
  db: Knex,
  relay: { kick(): void },
  tenant: Tenant,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  await findWebhook(db, tenant, webhookId);
  const delivery = isUuid(deliveryId) ? await repo.findDelivery(db, tenant, deliveryId) : undefined;
  if (!delivery || delivery.webhook_id !== webhookId) throw errors.notFound('Delivery');
  await withOutbox(db, relay, async (trx, outbox) => {
    await repo.markPending(trx, tenant, deliveryId);
    await queueAttempt(outbox, tenant, { deliveryId, step: 1 });
  });
  return toDelivery({ ...delivery, status: 'pending' }, []);
}

async function findWebhook(db: Knex, tenant: Tenant, id: string): Promise<WebhookRow> {
  const row = isUuid(id) ? await repo.findWebhook(db, tenant, id) : undefined;
  if (!row) throw errors.notFound('Webhook');
  return row;
}
