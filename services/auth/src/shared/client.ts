import type { Request } from 'express';

/** Where a request came from, as sessions and the audit trail record it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The client address (the proxy-aware `req.ip`) and the User-Agent, capped so a huge header is not stored. */
export function clientOf(req: Request): ClientInfo {
  const userAgent = req.get('user-agent');
  return { ip: req.ip ?? null, userAgent: userAgent ? userAgent.slice(0, 512) : null };
}
