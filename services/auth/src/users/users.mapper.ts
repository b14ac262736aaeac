import { toIso } from '@platform/tenancy';
import type { UserRow } from './users.repository';

/** The user as every endpoint returns it. */
export interface User {
  id: string;
  /** Null while the user is anonymous. */
  email: string | null;
  isAnonymous: boolean;
  emailVerified: boolean;
  phoneNumber: string | null;
  phoneVerified: boolean;
  avatarUrl: string | null;
  username: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  lastLogin: string | null;
}

/** Lookup by email (a server-side call with the project's keys) also shows ownership and roles. */
export interface UserLookup extends User {
  tenantId: string;
  projectId: string;
  isAdmin: boolean;
  isCoreAccount: boolean;
}

/** Rows become API objects here and nowhere else. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    isAnonymous: row.anonymous_since !== null,
    emailVerified: row.email_verified,
    phoneNumber: row.phone_number ?? null,
    phoneVerified: row.phone_verified,
    avatarUrl: row.avatar_url ?? null,
    username: row.username ?? null,
    metadata: row.metadata ?? {},
    createdAt: toIso(row.created_at)!,
    updatedAt: toIso(row.updated_at)!,
    lastLogin: toIso(row.last_login),
  };
}

/** A user as the project's own administration sees it (GET /users): also whether it is disabled. */
export interface ManagedUser extends UserLookup {
  disabled: boolean;
  disabledAt: string | null;
}

export function toManagedUser(row: UserRow): ManagedUser {
  return { ...toUserLookup(row), disabled: row.disabled_at !== null, disabledAt: toIso(row.disabled_at) };
}

export function toUserLookup(row: UserRow): UserLookup {
  return {
    ...toUser(row),
    tenantId: row.tenant_id,
    projectId: row.project_id,
    isAdmin: row.is_admin,
    isCoreAccount: row.is_core_account,
  };
}
