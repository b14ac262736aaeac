import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { withOutbox } from '@platform/events';
import type { ServiceDeps } from '@platform/runtime';
import { errors, isUuid, toIso, type Page, type Tenant } from '@platform/tenancy';
import { assertTargetAllowed, WebhookRefusedError } from '@platform/webhooks';
import type { CmsConfig } from '../config';
import { queueAttempt } from './content-events';
import * as repo from './webhooks.repository';
import type { AttemptRow, DeliveryRow, WebhookRow } from './webhooks.repository';
import type { CreateWebhookInput } from './webhooks.schemas';

const toWebhook = (row: WebhookRow) => ({ ...row, createdAt: toIso(row.createdAt) as string });

const toAttempt = (row: AttemptRow) => ({
  attempt: row.attempt,
  outcome: row.outcome,
  statusCode: row.statusCode,
  error: row.error,
  durationMs: row.durationMs,
  createdAt: toIso(row.createdAt) as string,
});

const toDelivery = (row: DeliveryRow, attempts: AttemptRow[]) => ({
  id: row.id,
  webhookId: row.webhookId,
  event: row.event,
  status: row.status,
  attemptCount: row.attemptCount,
  payload: JSON.parse(row.body) as unknown,
  attempts: attempts.map(toAttempt),
  createdAt: toIso(row.createdAt) as string,
  updatedAt: toIso(row.updatedAt) as string,
});

/** Subscriptions to content events and their deliveries. */
export class WebhooksService {
  constructor(
    private readonly deps: Pick<ServiceDeps, 'db' | 'relay'>,
    private readonly config: Pick<CmsConfig, 'webhooksPerProject' | 'webhookAllowedHosts'>,
  ) {}

  private get db(): Knex {
    return this.deps.db;
  }

  async create(tenant: Tenant, input: CreateWebhookInput) {
    const url = new URL(input.url);
    // Plain HTTP only to hosts the operator allowed (local receivers in tests and staging).
    if (url.protocol !== 'https:' && !this.config.webhookAllowedHosts.includes(url.hostname)) {
      throw errors.validation('The webhook URL must use HTTPS', [{ path: 'url', message: 'url must be an https URL' }]);
    }
    try {
      // Literal private addresses are refused now; names are checked on each attempt (DNS may change).
      assertTargetAllowed(url, this.config.webhookAllowedHosts);
    } catch (error) {
      if (!(error instanceof WebhookRefusedError)) throw error;
      throw errors.validation('The webhook URL is not allowed', [{ path: 'url', message: error.message }]);
    }
    const perProject = this.config.webhooksPerProject;
    // Count and insert under the project's lock, so that concurrent creates cannot pass the limit together.
    const row = await this.db.transaction(async (trx) => {
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

  async list(tenant: Tenant) {
    return { webhooks: (await repo.listWebhooks(this.db, tenant)).map(toWebhook) };
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.deleteWebhook(this.db, tenant, id))) throw errors.notFound('Webhook');
  }

  async deliveries(tenant: Tenant, webhookId: string, page: Page) {
    await this.findWebhook(tenant, webhookId);
    const { rows, total, attempts } = await repo.listDeliveries(this.db, tenant, webhookId, page);
    return {
      deliveries: rows.map((row) =>
        toDelivery(
          row,
          attempts.filter((a) => a.deliveryId === row.id),
        ),
      ),
      total,
      limit: page.limit,
      offset: page.offset,
    };
  }

  /** A new chain of attempts for a delivery, whatever became of the earlier ones: same id, same body. */
  async redeliver(tenant: Tenant, webhookId: string, deliveryId: string) {
    await this.findWebhook(tenant, webhookId);
    const delivery = isUuid(deliveryId) ? await repo.findDelivery(this.db, tenant, deliveryId) : undefined;
    if (!delivery || delivery.webhookId !== webhookId) throw errors.notFound('Delivery');
    await withOutbox(this.db, this.deps.relay, async (trx, outbox) => {
      await repo.markPending(trx, tenant, deliveryId);
      await queueAttempt(outbox, tenant, { deliveryId, step: 1 });
    });
    return toDelivery({ ...delivery, status: 'pending' }, []);
  }

  private async findWebhook(tenant: Tenant, id: string): Promise<WebhookRow> {
    const row = isUuid(id) ? await repo.findWebhook(this.db, tenant, id) : undefined;
    if (!row) throw errors.notFound('Webhook');
    return row;
  }
}
