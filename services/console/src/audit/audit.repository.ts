import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';
import type { AuditAct, AuditContext, AuditFilters } from './audit.model';

export interface AuditRow {
  seq: string;
  id: string;
  at: Date;
  tenant_id: string | null;
  project_id: string | null;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  outcome: string;
  client_address: string | null;
  user_agent: string | null;
  source: string;
  details: Record<string, unknown>;
}

const COLUMNS = [
  'seq',
  'id',
  'at',
  'tenant_id',
  'project_id',
  'actor_id',
  'actor_email',
  'action',
  'target',
  'outcome',
  'client_address',
  'user_agent',
  'source',
  'details',
] as const;

/** Appends an entry; with `eventId`, a second delivery of the same event adds nothing. */
export async function insertAuditEntry(
  db: Knex,
  context: AuditContext,
  act: AuditAct,
  extra: { at?: Date; eventId?: string } = {},
): Promise<void> {
  const insert = sharedTable(db, 'audit_entries').insert({
    tenant_id: act.tenantId ?? null,
    project_id: act.projectId ?? null,
    actor_id: context.actorId,
    actor_email: context.actorEmail,
    action: act.action,
    target: act.target ?? null,
    outcome: act.outcome,
    client_address: context.clientAddress,
    user_agent: context.userAgent,
    source: context.source,
    details: JSON.stringify(act.details ?? {}),
    ...(extra.at ? { at: extra.at } : {}),
    ...(extra.eventId ? { event_id: extra.eventId } : {}),
  });
  if (extra.eventId) await insert.onConflict('event_id').ignore();
  else await insert;
}

function filtered(db: Knex, tenantId: string, filters: AuditFilters) {
  const query = sharedTable<AuditRow>(db, 'audit_entries').where({ tenant_id: tenantId });
  if (filters.projectId) query.where({ project_id: filters.projectId });
  if (filters.actor) query.where((q) => q.where({ actor_id: filters.actor }).orWhere({ actor_email: filters.actor }));
  if (filters.action) query.where({ action: filters.action });
  if (filters.from) query.where('at', '>=', filters.from);
  if (filters.to) query.where('at', '<', filters.to);
  return query;
}

/** Newest first; `beforeSeq` is the cursor (the last entry of the previous page). */
export async function listAuditEntries(
  db: Knex,
  tenantId: string,
  filters: AuditFilters,
  page: { limit: number; beforeSeq?: string },
): Promise<AuditRow[]> {
  const query = filtered(db, tenantId, filters);
  if (page.beforeSeq) query.where('seq', '<', page.beforeSeq);
  return query
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .select(...COLUMNS);
}

/** Oldest first, in chunks (the export streams them). */
export async function auditEntriesAfter(
  db: Knex,
  tenantId: string,
  filters: AuditFilters,
  afterSeq: string,
  limit: number,
): Promise<AuditRow[]> {
  return filtered(db, tenantId, filters)
    .where('seq', '>', afterSeq)
    .orderBy('seq', 'asc')
    .limit(limit)
    .select(...COLUMNS);
}

/** The retention prune (every tenant's entries): through the owner's function, the only way rows leave. */
export async function pruneAuditEntries(db: Knex, olderThan: Date): Promise<number> {
  const result = await db.raw<{ rows: { removed: string }[] }>('select prune_audit_entries(?) as removed', [olderThan]);
  return Number(result.rows[0].removed);
}
