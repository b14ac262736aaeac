import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { errors, type AccessTokenClaims } from '@platform/tenancy';
import { recordEvents } from '../audit/audit.service';
import type { Actor } from '../shared/client';
import { findUserById } from '../users/users.service';
import { toSession, type Session } from './user-sessions.mapper';
import type { EndedBy } from './user-sessions.model';
import { endSessionRows, findLiveSession, listLiveSessions, type EndSelection } from './user-sessions.repository';

/** What the other features do with sessions (they never reach into the repository). */
export { findSession, insertSession, sessionColumns, touchSession } from './user-sessions.repository';

/**
 * Ends the selected live sessions (their refresh tokens die at once) and records a
 * `session_ended` event for each, saying by whom, in the caller's transaction.
 */
export async function endSessions(
  db: Knex,
  tenant: Tenant,
  selection: EndSelection,
  endedBy: EndedBy,
  actor: Actor,
): Promise<string[]> {
  const ids = await endSessionRows(db, tenant, selection, endedBy);
  await recordEvents(
    db,
    tenant,
    ...ids.map((id) => ({
      type: 'session_ended' as const,
      userId: selection.userId,
      client: actor.client,
      sessionId: id,
      data: { endedBy, ...(actor.sessionId ? { bySessionId: actor.sessionId } : {}) },
    })),
  );
  return ids;
}

export const ownerOfClaims = (claims: AccessTokenClaims): Tenant => ({
  tenantId: claims.tenantId,
  projectId: claims.projectId,
});

const sessionNotFound = () => errors.notFound('Session');

/** Scope of `DELETE /sessions`: every other session, or all of them (like logout). */
export type EndScope = 'others' | 'all';

export async function listMySessions(db: Knex, claims: AccessTokenClaims): Promise<{ sessions: Session[] }> {
  const rows = await listLiveSessions(db, ownerOfClaims(claims), claims.userId);
  return { sessions: rows.map((row) => toSession(row, claims.sessionId)) };
}

/** A live session of the token's user; another user's, an ended or an unknown one is 404. */
export async function getMySession(db: Knex, claims: AccessTokenClaims, id: string): Promise<{ session: Session }> {
  const row = await findLiveSession(db, ownerOfClaims(claims), claims.userId, id);
  if (!row) throw sessionNotFound();
  return { session: toSession(row, claims.sessionId) };
}

export async function endMySession(db: Knex, claims: AccessTokenClaims, id: string, actor: Actor): Promise<string> {
  const tenant = ownerOfClaims(claims);
  const ended = await db.transaction(async (trx) => {
    if (!(await findLiveSession(trx, tenant, claims.userId, id))) return [];
    return endSessions(trx, tenant, { userId: claims.userId, only: id }, 'user', actor);
  });
  if (!ended.length) throw sessionNotFound();
  return id;
}

/** Ends all sessions of the token's user but its own (`others`), or all of them. */
export async function endMySessions(
  db: Knex,
  claims: AccessTokenClaims,
  scope: EndScope,
  actor: Actor,
): Promise<string[]> {
  const except = scope === 'others' ? claims.sessionId : undefined;
  return db.transaction((trx) =>
    endSessions(trx, ownerOfClaims(claims), { userId: claims.userId, except }, 'user', actor),
  );
}

async function existingUser(db: Knex, tenant: Tenant, userId: string): Promise<void> {
  if (!(await findUserById(db, tenant, userId))) throw errors.notFound('User');
}

/** Keys side: a user's live sessions, for the console and support staff. */
export async function listUserSessions(db: Knex, tenant: Tenant, userId: string): Promise<{ sessions: Session[] }> {
  await existingUser(db, tenant, userId);
  return { sessions: (await listLiveSessions(db, tenant, userId)).map((row) => toSession(row)) };
}

export async function getUserSession(
  db: Knex,
  tenant: Tenant,
  userId: string,
  id: string,
): Promise<{ session: Session }> {
  const row = await findLiveSession(db, tenant, userId, id);
  if (!row) throw sessionNotFound();
  return { session: toSession(row) };
}

export async function endUserSession(
  db: Knex,
  tenant: Tenant,
  userId: string,
  id: string,
  actor: Actor,
): Promise<string> {
  const ended = await db.transaction(async (trx) => {
    if (!(await findLiveSession(trx, tenant, userId, id))) return [];
    return endSessions(trx, tenant, { userId, only: id }, 'project', actor);
  });
  if (!ended.length) throw sessionNotFound();
  return id;
}

export async function endUserSessions(db: Knex, tenant: Tenant, userId: string, actor: Actor): Promise<string[]> {
  await existingUser(db, tenant, userId);
  return db.transaction((trx) => endSessions(trx, tenant, { userId }, 'project', actor));
}
