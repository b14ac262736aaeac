import { toIso } from '@platform/tenancy';
import type { Role } from '../access/roles';
import type { MemberRow } from './members.repository';

/** A member of an organisation as the API returns it. */
export interface OrganisationMember {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}

export function toOrganisationMember(row: MemberRow): OrganisationMember {
  return { userId: row.user_id, email: row.email, role: row.role, joinedAt: toIso(row.created_at)! };
}
