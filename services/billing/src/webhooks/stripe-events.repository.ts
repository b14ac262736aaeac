import type { Knex } from 'knex';
import { scopeColumns, type Scope } from '../shared/scope';

export async function isEventProcessed(db: Knex, scope: Scope, eventId: string): Promise<boolean> {
  const row = await db('stripe_events')
    .where({ ...scopeColumns(scope), event_id: eventId })
    .first('event_id');
  return Boolean(row);
}

/** Records the event as processed; false when it already was (a redelivery). */
export async function markEventProcessed(
  db: Knex,
  scope: Scope,
  event: { id: string; type: string },
): Promise<boolean> {
  const rows = await db('stripe_events')
    .insert({ ...scopeColumns(scope), event_id: event.id, type: event.type })
    .onConflict(['tenant_id', 'project_id', 'environment', 'event_id'])
    .ignore()
    .returning('event_id');
  return rows.length > 0;
}
