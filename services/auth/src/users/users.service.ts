import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import { errors, type AccessTokenClaims } from '@platform/tenancy';
import { toUser, toUserLookup, type User, type UserLookup } from './users.mapper';
import type { UserRow } from './users.model';
import { findUserByEmail, findUserById, removeMetadata, updateProfile, type ProfileChanges } from './users.repository';

/** What the other features read and change of a user (they never reach into the repository). */
export {
  bumpTokenVersion,
  convertAnonymous,
  endAnonymity,
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  listUsers,
  markEmailVerified,
  setDisabled,
  markSignedIn,
  setPassword,
} from './users.repository';

const tenantOfClaims = (claims: AccessTokenClaims): Tenant => ({
  tenantId: claims.tenantId,
  projectId: claims.projectId,
});

/** The signed-in user; a token whose user no longer exists in its project is no session. */
function existing(user: UserRow | null): UserRow {
  if (!user) throw errors.invalidSession();
  return user;
}

export async function getMe(db: Knex, claims: AccessTokenClaims): Promise<{ user: User }> {
  const user = existing(await findUserById(db, tenantOfClaims(claims), claims.userId));
  return { user: toUser(user) };
}

export async function updateMe(db: Knex, claims: AccessTokenClaims, changes: ProfileChanges): Promise<{ user: User }> {
  const user = existing(await updateProfile(db, tenantOfClaims(claims), claims.userId, changes));
  return { user: toUser(user) };
}

/** Removes the metadata keys named (their values are ignored); no keys at all clears the metadata. */
export async function removeMyMetadata(
  db: Knex,
  claims: AccessTokenClaims,
  metadata: Record<string, unknown>,
): Promise<{ user: User }> {
  const user = existing(await removeMetadata(db, tenantOfClaims(claims), claims.userId, Object.keys(metadata)));
  return { user: toUser(user) };
}

export async function lookupByEmail(db: Knex, tenant: Tenant, email: string): Promise<{ user: UserLookup }> {
  const user = await findUserByEmail(db, tenant, email);
  if (!user) throw errors.notFound('User');
  return { user: toUserLookup(user) };
}
