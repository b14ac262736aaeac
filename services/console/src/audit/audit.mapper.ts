import { toIso } from '@platform/tenancy';
import type { AuditRow } from './audit.repository';

/** An audit entry as the API returns it. */
export interface AuditEntry {
  id: string;
  at: string;
  organisationId: string | null;
  projectId: string | null;
  actor: { id: string | null; email: string | null };
  action: string;
  target: string | null;
  outcome: string;
  clientAddress: string | null;
  userAgent: string | null;
  source: string;
  details: Record<string, unknown>;
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: toIso(row.at)!,
    organisationId: row.tenant_id,
    projectId: row.project_id,
    actor: { id: row.actor_id, email: row.actor_email },
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    clientAddress: row.client_address,
    userAgent: row.user_agent,
    source: row.source,
    details: row.details ?? {},
  };
}
