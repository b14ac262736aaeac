import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';
import { SECURITY_EVENT_COLUMNS, type EventFilter, type NewSecurityEvent, type SecurityEventRow } from './audit.model';

interface SecurityEventTable extends SecurityEventRow {
  tenant_id: string;
  project_id: string;
}

const events = (db: Knex, tenant: Tenant) => tenantTable<SecurityEventTable>(db, tenant, 'security_events');

export async function insertEvents(db: Knex, tenant: Tenant, list: NewSecurityEvent[]): Promise<void> {
  if (!list.length) return;
  await events(db, tenant).insert(
    list.map((event) => ({
      id: randomUUID(),
      ...tenantColumns(tenant),
      user_id: event.userId,
      type: event.type,
      ip: event.client.ip,
      user_agent: event.client.userAgent,
      session_id: event.sessionId ?? null,
      data: event.data ?? {},
    })),
  );
}

/** Newest first; one more row than the limit tells whether a next page exists. */
export async function listEvents(db: Knex, tenant: Tenant, filter: EventFilter): Promise<SecurityEventRow[]> {
  const query = events(db, tenant);
  if (filter.userId !== undefined) query.where({ user_id: filter.userId });
  if (filter.types?.length) query.whereIn('type', filter.types);
  if (filter.from) query.where('created_at', '>=', filter.from);
  if (filter.to) query.where('created_at', '<', filter.to);
  if (filter.after !== undefined) query.where('seq', '<', filter.after);
  return (await query
    .orderBy('seq', 'desc')
    .limit(filter.limit + 1)
    .select(...SECURITY_EVENT_COLUMNS)) as SecurityEventRow[];
}

/**
 * Deletes up to `batchSize` events older than the retention. A sweep across all tenants
 * (maintenance), the one query here that takes no tenant.
 */
export async function deleteExpiredEvents(db: Knex, retentionDays: number, batchSize: number): Promise<number> {
  const result = await db.raw<{ rowCount: number }>(
    `delete from security_events where ctid = any(array(
       select ctid from security_events
        where created_at < now() - :days * interval '1 day'
        limit :batchSize
        for update skip locked))`,
    { days: retentionDays, batchSize },
  );
  return result.rowCount;
}
