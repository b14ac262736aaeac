import type { Knex } from 'knex';
import { tenantColumns, sharedTable, tenantTable } from '@platform/db';
import type { Page, Tenant } from '@platform/tenancy';
import type { AttemptOutcome, AttemptResult } from '@platform/webhooks';
import type { ContentEvent, DeliveryStatus, NewDelivery, NewWebhook } from './webhooks.model';

export type { ContentEvent, DeliveryStatus } from './webhooks.model';

export interface WebhookRow {
  id: string;
  url: string;
  events: ContentEvent[];
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: ContentEvent;
  url: string;
  body: string;
  status: DeliveryStatus;
  attempt_count: number;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  outcome: AttemptOutcome;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
}

const ATTEMPTS = 'webhook_delivery_attempts';
const WEBHOOK_COLUMNS = ['id', 'url', 'events', 'created_at'];
const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'event',
  'url',
  'body',
  'status',
  'attempt_count',
  'created_at',
  'updated_at',
];
const ATTEMPT_COLUMNS = ['delivery_id', 'attempt', 'outcome', 'status_code', 'error', 'duration_ms', 'created_at'];

export async function insertWebhook(db: Knex, tenant: Tenant, webhook: NewWebhook): Promise<WebhookRow> {
  const [row] = await tenantTable(db, tenant, 'webhooks')
    .insert({ id: webhook.id, ...tenantColumns(tenant), url: webhook.url, events: webhook.events })
    .returning<WebhookRow[]>(WEBHOOK_COLUMNS);
  return row;
}

export async function listWebhooks(db: Knex, tenant: Tenant): Promise<WebhookRow[]> {
  return tenantTable<WebhookRow>(db, tenant, 'webhooks')
    .select(...WEBHOOK_COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

/** Serialises changes to the number of the project's webhooks until the transaction ends. */
export async function lockProjectWebhooks(trx: Knex.Transaction, tenant: Tenant): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`cms.webhooks:${tenant.projectId}`]);
}

export async function countWebhooks(db: Knex, tenant: Tenant): Promise<number> {
  const [{ count }] = await tenantTable(db, tenant, 'webhooks').count<{ count: string }[]>({ count: '*' });
  return Number(count);
}

export async function findWebhook(db: Knex, tenant: Tenant, id: string): Promise<WebhookRow | undefined> {
  return tenantTable<WebhookRow>(db, tenant, 'webhooks')
    .where({ id })
    .first(...WEBHOOK_COLUMNS);
}

export async function deleteWebhook(db: Knex, tenant: Tenant, id: string): Promise<boolean> {
  return (await tenantTable(db, tenant, 'webhooks').where({ id }).delete()) > 0;
}

/** The project's subscriptions to any of `events`, oldest first. */
export async function subscribersOf(db: Knex, tenant: Tenant, events: ContentEvent[]): Promise<WebhookRow[]> {
  return tenantTable<WebhookRow>(db, tenant, 'webhooks')
    .whereRaw('events && ?::text[]', [events])
    .select(...WEBHOOK_COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
}

export async function insertDelivery(trx: Knex.Transaction, tenant: Tenant, delivery: NewDelivery): Promise<void> {
  await tenantTable(trx, tenant, 'webhook_deliveries').insert({
    id: delivery.id,
    ...tenantColumns(tenant),
    webhook_id: delivery.webhookId,
    event: delivery.event,
    url: delivery.url,
    body: delivery.body,
  });
}

export async function findDelivery(db: Knex, tenant: Tenant, id: string): Promise<DeliveryRow | undefined> {
  return tenantTable<DeliveryRow>(db, tenant, 'webhook_deliveries')
    .where({ id })
    .first(...DELIVERY_COLUMNS);
}

export async function listDeliveries(
  db: Knex,
  tenant: Tenant,
  webhookId: string,
  page: Page,
): Promise<{ rows: DeliveryRow[]; total: number; attempts: AttemptRow[] }> {
  const deliveriesOf = () =>
    tenantTable<DeliveryRow>(db, tenant, 'webhook_deliveries').where({ webhook_id: webhookId });
  const [found, [{ count }]] = await Promise.all([
    deliveriesOf()
      .select(...DELIVERY_COLUMNS)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(page.offset),
    deliveriesOf().count<{ count: string }[]>({ count: '*' }),
  ]);
  const rows = found as DeliveryRow[];
  // Attempts are reached through the project's own delivery ids.
  const attempts = rows.length
    ? await sharedTable<AttemptRow>(db, ATTEMPTS)
        .whereIn(
          'delivery_id',
          rows.map((row) => row.id),
        )
        .select(...ATTEMPT_COLUMNS)
        .orderBy('attempt')
    : [];
  return { rows, total: Number(count), attempts: attempts as AttemptRow[] };
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
  const [row] = await tenantTable(trx, tenant, 'webhook_deliveries')
    .where({ id: deliveryId })
    .update({ attempt_count: trx.raw('attempt_count + 1'), status, updated_at: trx.fn.now() })
    .returning<{ attempt_count: number }[]>('attempt_count');
  if (!row) return 0;
  // The delivery was updated under its owner just above.
  await sharedTable(trx, ATTEMPTS).insert({
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
  await tenantTable(trx, tenant, 'webhook_deliveries')
    .where({ id: deliveryId })
    .update({ status: 'pending', updated_at: trx.fn.now() });
}
