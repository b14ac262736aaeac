import type { TenantRecord } from '@platform/directory';
import { toIso } from '@platform/tenancy';
import type { Role } from '../access/roles';

/** An organisation (a platform tenant) as the API returns it; `role` is the caller's. */
export interface Organisation {
  id: string;
  name: string;
  createdAt: string;
  suspended: boolean;
  suspendedAt: string | null;
  suspensionReason: string | null;
  role?: Role;
}

export function toOrganisation(tenant: TenantRecord, role?: Role): Organisation {
  return {
    id: tenant.id,
    name: tenant.name,
    createdAt: toIso(tenant.createdAt)!,
    suspended: tenant.suspendedAt !== null,
    suspendedAt: toIso(tenant.suspendedAt) ?? null,
    suspensionReason: tenant.suspensionReason,
    ...(role ? { role } : {}),
  };
}
