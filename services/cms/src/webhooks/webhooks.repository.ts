import type { Knex } from 'knex';
import type { Page, Tenant } from '@platform/tenancy';
import type { AttemptOutcome, AttemptResult } from '@platform/webhooks';

export type ContentEvent =
  | 'content.created'
  | 'content.updated'
  | 'content.published'
  | 'content.unpublished'
  | 'content.deleted';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'refused';

export interface WebhookRow {
  id: string;
  url: string;
  events: ContentEvent[];
  createdAt: Date;
}

export interface DeliveryRow {
  id: string;
  webhookId: string;
  event: ContentEvent;
  url: string;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface AttemptRow {
  deliveryId: string;
  attempt: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  createdAt: Date;
}

const WEBHOOK_COLUMNS = { id: 'id', url: 'url', events: 'events', createdAt: 'created_at' };
const DELIVERY_COLUMNS = {
  id: 'id',
  webhookId: 'webhook_id',
  event: 'event',
  url: 'url',
  body: 'body',
  status: 'status',
  attemptCount: 'attempt_count',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};
const ATTEMPT_COLUMNS = {
  deliveryId: 'delivery_id',
  attempt: 'attempt',
  outcome: 'outcome',
  statusCode: 'status_code',
  error: 'error',
  durationMs: 'duration_ms',
  createdAt: 'created_at',
};

const owned = (tenant: Tenant) => ({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

export async function insertWebhook(
  db: Knex,
  tenant: Tenant,
  webhook: Omit<WebhookRow, 'createdAt'>,
): Promise<WebhookRow> {
  const [row] = await db('webhooks')
    .insert({ id: webhook.id, ...owned(tenant), url: webhook.url, events: webhook.events })
    .returning(Object.entries(WEBHOOK_COLUMNS).map(([alias, column]) => `${column} as ${alias}`));
  return row;
}

export async function listWebhooks(db: Knex, tenant: Tenant): Promise<WebhookRow[]> {
  return db('webhooks')
    .where(owned(tenant))
    .select(WEBHOOK_COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

export async function findWebhook(db: Knex, tenant: Tenant, id: string): Promise<WebhookRow | undefined> {
  return db('webhooks').where(owned(tenant)).where({ id }).first(WEBHOOK_COLUMNS);
}

export async function deleteWebhook(db: Knex, tenant: Tenant, id: string): Promise<boolean> {
  return (await db('webhooks').where(owned(tenant)).where({ id }).delete()) > 0;
}

/** The project's subscriptions to `event`. */
export async function subscribersOf(db: Knex, tenant: Tenant, event: ContentEvent): Promise<WebhookRow[]> {
  return db('webhooks').where(owned(tenant)).whereRaw('? = ANY(events)', [event]).select(WEBHOOK_COLUMNS);
}

export async function insertDelivery(
  trx: Knex.Transaction,
  tenant: Tenant,
  delivery: Pick<DeliveryRow, 'id' | 'webhookId' | 'event' | 'url' | 'body'>,
): Promise<void> {
  await trx('webhook_deliveries').insert({
    id: delivery.id,
    ...owned(tenant),
    webhook_id: delivery.webhookId,
    event: delivery.event,
    url: delivery.url,
    body: delivery.body,
  });
}

export async function findDelivery(db: Knex, tenant: Tenant, id: string): Promise<DeliveryRow | undefined> {
  return db('webhook_deliveries').where(owned(tenant)).where({ id }).first(DELIVERY_COLUMNS);
}

export async function listDeliveries(
  db: Knex,
  tenant: Tenant,
  webhookId: string,
  page: Page,
): Promise<{ rows: DeliveryRow[]; total: number; attempts: AttemptRow[] }> {
  const scoped = () => db('webhook_deliveries').where(owned(tenant)).where({ webhook_id: webhookId });
  const [rows, [{ count }]] = await Promise.all([
    scoped()
      .select(DELIVERY_COLUMNS)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset),
    scoped().count<{ count: string }[]>({ count: '*' }),
  ]);
  const attempts: AttemptRow[] = rows.length
    ? await db('webhook_delivery_attempts')
        .whereIn(
          'delivery_id',
          rows.map((row: DeliveryRow) => row.id),
        )
        .select(ATTEMPT_COLUMNS)
        .orderBy('attempt')
    : [];
  return { rows, total: Number(count), attempts };
}

/**
 * Records one attempt and the delivery's state after it; the attempt's number is the
 * delivery's count after the bump, so a redelivery racing a retry still gets its own number.
 */
export async function recordAttempt(
  trx: Knex.Transaction,
  tenant: Tenant,
  deliveryId: string,
  result: AttemptResult,
  status: DeliveryStatus,
): Promise<number> {
  const [row] = await trx('webhook_deliveries')
    .where(owned(tenant))
    .where({ id: deliveryId })
    .update({ attempt_count: trx.raw('attempt_count + 1'), status, updated_at: trx.fn.now() })
    .returning('attempt_count');
  if (!row) return 0;
  await trx('webhook_delivery_attempts').insert({
    id: crypto.randomUUID(),
    delivery_id: deliveryId,
    attempt: row.attempt_count,
    outcome: result.outcome,
    status_code: result.statusCode,
    error: result.error?.slice(0, 500) ?? null,
    duration_ms: result.durationMs,
  });
  return row.attempt_count;
}

/** Marks a delivery pending again (a redelivery was asked for). */
export async function markPending(trx: Knex.Transaction, tenant: Tenant, deliveryId: string): Promise<void> {
  await trx('webhook_deliveries')
    .where(owned(tenant))
    .where({ id: deliveryId })
    .update({ status: 'pending', updated_at: trx.fn.now() });
}
