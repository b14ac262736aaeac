import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';
import { isUuid } from '@platform/tenancy';
import { deviceLabel } from './device-label';
import { SESSION_COLUMNS, type EndedBy, type NewSession, type SessionRow } from './user-sessions.model';

interface SessionTable extends SessionRow {
  tenant_id: string;
  project_id: string;
}

const sessions = (db: Knex, tenant: Tenant) => tenantTable<SessionTable>(db, tenant, 'sessions');

/** Live: not ended, and its newest refresh token not yet dead of age. */
const live = (db: Knex, tenant: Tenant) =>
  sessions(db, tenant).whereNull('ended_at').where('expires_at', '>', db.fn.now());

/** The columns of a new session row (also used by the one-statement sign-in). */
export function sessionColumns(session: NewSession) {
  return {
    id: session.id,
    user_id: session.userId,
    method: session.method,
    aal: session.aal,
    ip: session.client.ip,
    user_agent: session.client.userAgent,
    device_label: deviceLabel(session.client.userAgent),
    expires_at: session.expiresAt,
  };
}

export async function insertSession(db: Knex, tenant: Tenant, session: NewSession): Promise<void> {
  await sessions(db, tenant).insert({ ...tenantColumns(tenant), ...sessionColumns(session) });
}

/** The session by id (ended or not); `forUpdate` serialises it against a concurrent end. */
export async function findSession(
  db: Knex,
  tenant: Tenant,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SessionRow | null> {
  if (!isUuid(id)) return null;
  const query = sessions(db, tenant).where({ id });
  const row = await (options.forUpdate ? query.forUpdate() : query).first(...SESSION_COLUMNS);
  return (row as SessionRow | undefined) ?? null;
}

export async function findLiveSession(
  db: Knex,
  tenant: Tenant,
  userId: string,
  id: string,
): Promise<SessionRow | null> {
  if (!isUuid(id) || !isUuid(userId)) return null;
  const row = await live(db, tenant)
    .where({ id, user_id: userId })
    .first(...SESSION_COLUMNS);
  return (row as SessionRow | undefined) ?? null;
}

/** The user's live sessions, most recently used first. */
export async function listLiveSessions(db: Knex, tenant: Tenant, userId: string): Promise<SessionRow[]> {
  if (!isUuid(userId)) return [];
  return (await live(db, tenant)
    .where({ user_id: userId })
    .orderBy([
      { column: 'last_refreshed_at', order: 'desc' },
      { column: 'id', order: 'asc' },
    ])
    .select(...SESSION_COLUMNS)) as SessionRow[];
}

/** A rotation: the session was used now and lives until its new refresh token expires. */
export async function touchSession(db: Knex, tenant: Tenant, id: string, expiresAt: Date): Promise<void> {
  await sessions(db, tenant).where({ id }).update({ last_refreshed_at: db.fn.now(), expires_at: expiresAt });
}

export interface EndSelection {
  userId: string;
  /** Only this session. */
  only?: string;
  /** Every session but this one. */
  except?: string;
}

/**
 * Ends the selected live sessions of the user and revokes their refresh tokens at once, in the
 * caller's transaction. Returns the ids it ended.
 */
export async function endSessionRows(
  db: Knex,
  tenant: Tenant,
  selection: EndSelection,
  endedBy: EndedBy,
): Promise<string[]> {
  const query = sessions(db, tenant).where({ user_id: selection.userId }).whereNull('ended_at');
  if (selection.only !== undefined) query.where({ id: selection.only });
  if (selection.except !== undefined) query.whereNot({ id: selection.except });
  const ended = (await query.update({ ended_at: db.fn.now(), ended_by: endedBy }).returning('id')) as { id: string }[];
  const ids = ended.map((row) => row.id);
  if (ids.length) {
    await tenantTable(db, tenant, 'refresh_tokens')
      .whereIn('family_id', ids)
      .whereNull('revoked_at')
      .update({ revoked_at: db.fn.now() });
  }
  return ids;
}
