import { toIso } from '@platform/tenancy';
import type { UserRecord } from './users.repository';

/** The user as every endpoint returns it. */
export function toUserJson(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    phoneNumber: user.phoneNumber,
    phoneVerified: user.phoneVerified,
    avatarUrl: user.avatarUrl,
    username: user.username,
    metadata: user.metadata,
    createdAt: toIso(user.createdAt),
    updatedAt: toIso(user.updatedAt),
    lastLogin: toIso(user.lastLogin),
  };
}

export type UserJson = ReturnType<typeof toUserJson>;

/** Lookup by email (a server-side call with the project's keys) also shows ownership and roles. */
export function toUserLookupJson(user: UserRecord) {
  return {
    ...toUserJson(user),
    tenantId: user.tenantId,
    projectId: user.projectId,
    isAdmin: user.isAdmin,
    isCoreAccount: user.isCoreAccount,
  };
}

export type UserLookupJson = ReturnType<typeof toUserLookupJson>;
