import type { Request } from 'express';

/** Where a request came from, as sessions and the audit trail record it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Who acted: the request's client, and the session of its access token when it had one. */
export interface Actor {
  client: ClientInfo;
  sessionId?: string;
}

/** The client address (the proxy-aware `req.ip`) and the User-Agent, capped so a huge header is not stored. */
export function clientOf(req: Request): ClientInfo {
  const userAgent = req.get('user-agent');
  return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
