import { toIso } from '@platform/tenancy';
import type { SecurityEventRow, SecurityEventType } from './audit.model';

/** One entry of the audit trail as the API shows it. */
export interface SecurityEvent {
  id: string;
  type: SecurityEventType;
  userId: string | null;
  sessionId: string | null;
  ip: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

export function toSecurityEvent(row: SecurityEventRow): SecurityEvent {
  return {
    id: row.id,
    type: row.type,
    userId: row.user_id,
    sessionId: row.session_id,
    ip: row.ip,
    userAgent: row.user_agent,
    data: row.data,
    createdAt: toIso(row.created_at)!,
  };
}

/** The cursor of a page's last event: opaque to clients. */
export function cursorOf(row: SecurityEventRow): string {
  return Buffer.from(`seq:${row.seq}`).toString('base64url');
}
