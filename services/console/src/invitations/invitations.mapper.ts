import { toIso } from '@platform/tenancy';
import type { Role } from '../access/roles';
import type { InvitationRow } from './invitations.repository';

/** An invitation as the API returns it: never its token. */
export interface Invitation {
  id: string;
  organisationId: string;
  email: string;
  role: Role;
  invitedBy: string;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  expiresAt: string;
  createdAt: string;
}

export function toInvitation(row: InvitationRow, now = new Date()): Invitation {
  const status = row.accepted_at
    ? 'accepted'
    : row.revoked_at
      ? 'revoked'
      : row.expires_at.getTime() <= now.getTime()
        ? 'expired'
        : 'pending';
  return {
    id: row.id,
    organisationId: row.tenant_id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    status,
    expiresAt: toIso(row.expires_at)!,
    createdAt: toIso(row.created_at)!,
  };
}
