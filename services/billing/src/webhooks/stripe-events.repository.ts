import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { EnvironmentTenant } from '../shared/environment-tenant';

export async function isEventProcessed(db: Knex, scope: EnvironmentTenant, eventId: string): Promise<boolean> {
  const row = await tenantTable(db, scope, 'stripe_events')
    .where({ environment: scope.environment, event_id: eventId })
    .first('event_id');
  return Boolean(row);
}

/** Records the event as processed; false when it already was (a redelivery). */
export async function markEventProcessed(
  db: Knex,
  scope: EnvironmentTenant,
  event: { id: string; type: string },
): Promise<boolean> {
  const rows = await tenantTable(db, scope, 'stripe_events')
    .insert({ ...tenantColumns(scope), environment: scope.environment, event_id: event.id, type: event.type })
    .onConflict(['tenant_id', 'project_id', 'environment', 'event_id'])
    .ignore()
    .returning('event_id');
  return rows.length > 0;
}
