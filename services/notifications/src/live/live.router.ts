import type { Request, RequestHandler } from 'express';
import { parse, tenantOf, errors } from '@platform/tenancy';
import { inboxStreamQuery, lastEventIdHeader, userQuery } from '../notifications/notifications.schemas';
import type { LiveHub } from './live.hub';

function lastEventIdOf(req: Request): number | undefined {
  const header = req.get('last-event-id');
  return header === undefined ? undefined : Number(parse(lastEventIdHeader, header));
}

/** The Server-Sent Events streams: a backend names the user, an end user's token is the user. */
export function liveHandlers(hub: LiveHub) {
  const keyed: RequestHandler = async (req, res) => {
    const { userId } = parse(userQuery, req.query);
    await hub.open(res, { tenant: tenantOf(req), userId, lastEventId: lastEventIdOf(req) });
  };

  const inbox: RequestHandler = async (req, res) => {
    parse(inboxStreamQuery, req.query);
    if (!req.auth) throw errors.invalidSession();
    const { userId, expiresAt } = req.auth;
    await hub.open(res, {
      tenant: tenantOf(req),
      userId,
      lastEventId: lastEventIdOf(req),
      // The stream ends with the token; the client reconnects with a fresh one.
      endsAt: expiresAt === undefined ? undefined : expiresAt * 1_000,
    });
  };

  return { keyed, inbox };
}
