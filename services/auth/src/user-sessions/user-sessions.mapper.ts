import { toIso } from '@platform/tenancy';
import type { AssuranceLevel, SessionRow, SignInMethod } from './user-sessions.model';

/** A sign-in session as the API shows it. */
export interface Session {
  id: string;
  createdAt: string;
  lastRefreshedAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  deviceLabel: string;
  method: SignInMethod;
  aal: AssuranceLevel;
  /** The session of the access token that asked. */
  current: boolean;
}

export function toSession(row: SessionRow, currentId?: string): Session {
  return {
    id: row.id,
    createdAt: toIso(row.created_at)!,
    lastRefreshedAt: toIso(row.last_refreshed_at)!,
    expiresAt: toIso(row.expires_at)!,
    ip: row.ip,
    userAgent: row.user_agent,
    deviceLabel: row.device_label,
    method: row.method,
    aal: row.aal,
    current: row.id === currentId,
  };
}
