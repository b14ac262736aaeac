import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { errors, type AccessTokenClaims } from '@platform/tenancy';
import { findUserById } from '../users/users.service';
import { cursorOf, toSecurityEvent, type SecurityEvent } from './audit.mapper';
import type { EventFilter, NewSecurityEvent } from './audit.model';
import { insertEvents, listEvents } from './audit.repository';
import type { EventsQuery } from './audit.schemas';

export type { NewSecurityEvent, SecurityEventType } from './audit.model';

/** Adds events to the project's trail, in the caller's transaction when given one. */
export function recordEvents(db: Knex, tenant: Tenant, ...events: NewSecurityEvent[]): Promise<void> {
  return insertEvents(db, tenant, events);
}

export interface EventPage {
  events: SecurityEvent[];
  nextCursor: string | null;
}

const badCursor = () => errors.validation('cursor is not one this endpoint returned');

function decodeCursor(cursor: string): EventFilter['after'] {
  const seq = /^seq:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))?.[1];
  if (!seq) throw badCursor();
  return seq;
}

async function page(db: Knex, tenant: Tenant, query: EventsQuery, userId?: string): Promise<EventPage> {
  const rows = await listEvents(db, tenant, {
    userId,
    types: query.type,
    from: query.from,
    to: query.to,
    limit: query.limit,
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
  });
  const shown = rows.slice(0, query.limit);
  return {
    events: shown.map(toSecurityEvent),
    nextCursor: rows.length > query.limit ? cursorOf(shown[shown.length - 1]) : null,
  };
}

/** The whole project's trail (keys). */
export function listProjectEvents(db: Knex, tenant: Tenant, query: EventsQuery): Promise<EventPage> {
  return page(db, tenant, query);
}

/** One user's trail (keys); an unknown user is 404. */
export async function listUserEvents(db: Knex, tenant: Tenant, userId: string, query: EventsQuery): Promise<EventPage> {
  if (!(await findUserById(db, tenant, userId))) throw errors.notFound('User');
  return page(db, tenant, query, userId);
}

/** The signed-in user's own security history (bearer). */
export function listMyEvents(db: Knex, claims: AccessTokenClaims, query: EventsQuery): Promise<EventPage> {
  return page(db, { tenantId: claims.tenantId, projectId: claims.projectId }, query, claims.userId);
}
