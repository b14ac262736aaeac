import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import { errors, parse, tenantOf, type Tenant } from '@platform/tenancy';
import { inboxListQuery } from '../notifications/notifications.schemas';
import type { ChangeRow } from '../notifications/notifications.events';
import * as notifications from '../notifications/notifications.service';

/** The user an end-user route acts for: the subject of the access token. */
function userOf(req: Request): string {
  if (!req.auth) throw errors.invalidSession();
  return req.auth.userId;
}

/** The end user's inbox: the keyed operations, always as the token's user sees them. */
export function inboxHandlers(db: Knex, announce: (tenant: Tenant, changes: ChangeRow[]) => void) {
  const list: RequestHandler = async (req, res) => {
    const query = parse(inboxListQuery, req.query);
    res.json(await notifications.listNotifications(db, tenantOf(req), { ...query, userId: userOf(req) }));
  };

  const unreadCount: RequestHandler = async (req, res) => {
    res.json(await notifications.unreadCount(db, tenantOf(req), userOf(req)));
  };

  const markRead: RequestHandler<{ id: string }> = async (req, res) => {
    const { result, changes } = await notifications.markRead(db, tenantOf(req), req.params.id, userOf(req));
    res.json(result);
    announce(tenantOf(req), changes);
  };

  const markAllRead: RequestHandler = async (req, res) => {
    const { result, changes } = await notifications.markAllRead(db, tenantOf(req), userOf(req));
    res.json(result);
    announce(tenantOf(req), changes);
  };

  return { list, unreadCount, markRead, markAllRead };
}
