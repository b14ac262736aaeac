import { errors, type AccessTokenClaims } from '@platform/tenancy';
import type { AuthContext, Tenant } from '../context';
import { toUserJson, toUserLookupJson } from './users.mapper';
import {
  findUserByEmail,
  findUserById,
  removeMetadata,
  updateProfile,
  type ProfileChanges,
  type UserRecord,
} from './users.repository';

const tenantOfClaims = (claims: AccessTokenClaims): Tenant => ({
  tenantId: claims.tenantId,
  projectId: claims.projectId,
});

/** The signed-in user; a token whose user no longer exists in its project is no session. */
function existing(user: UserRecord | null): UserRecord {
  if (!user) throw errors.invalidSession();
  return user;
}

export async function getMe(ctx: AuthContext, claims: AccessTokenClaims) {
  const user = existing(await findUserById(ctx.db, tenantOfClaims(claims), claims.userId));
  return { user: toUserJson(user) };
}

export async function updateMe(ctx: AuthContext, claims: AccessTokenClaims, changes: ProfileChanges) {
  const user = existing(await updateProfile(ctx.db, tenantOfClaims(claims), claims.userId, changes));
  return { user: toUserJson(user) };
}

/** Removes the metadata keys named (their values are ignored); no keys at all clears the metadata. */
export async function removeMyMetadata(ctx: AuthContext, claims: AccessTokenClaims, metadata: Record<string, unknown>) {
  const user = existing(await removeMetadata(ctx.db, tenantOfClaims(claims), claims.userId, Object.keys(metadata)));
  return { user: toUserJson(user) };
}

export async function lookupByEmail(ctx: AuthContext, tenant: Tenant, email: string) {
  const user = await findUserByEmail(ctx.db, tenant, email);
  if (!user) throw errors.notFound('User');
  return { user: toUserLookupJson(user) };
}
