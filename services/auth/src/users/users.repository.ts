import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isUuid } from '@platform/tenancy';
import type { Tenant } from '../context';
import { preparedFirst } from '../db/prepared';

/** A user as stored (the password hash never leaves the service). */
export interface UserRecord {
  id: string;
  tenantId: string;
  projectId: string;
  email: string;
  passwordHash: string;
  emailVerified: boolean;
  phoneNumber: string | null;
  phoneVerified: boolean;
  avatarUrl: string | null;
  username: string | null;
  metadata: Record<string, unknown>;
  isAdmin: boolean;
  isCoreAccount: boolean;
  tokenVersion: number;
  lastLogin: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a user row, in the order `userFromRow` reads them. */
export const USER_COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'email',
  'password_hash',
  'email_verified',
  'phone_number',
  'phone_verified',
  'avatar_url',
  'username',
  'metadata',
  'is_admin',
  'is_core_account',
  'token_version',
  'last_login',
  'created_at',
  'updated_at',
];

export type UserRow = Record<string, unknown>;
const COLUMNS = USER_COLUMNS;

export function userFromRow(row: UserRow): UserRecord {
  return {
    id: row.id as string,
    tenantId: row.tenant_id as string,
    projectId: row.project_id as string,
    email: row.email as string,
    passwordHash: row.password_hash as string,
    emailVerified: row.email_verified as boolean,
    phoneNumber: (row.phone_number as string | null) ?? null,
    phoneVerified: row.phone_verified as boolean,
    avatarUrl: (row.avatar_url as string | null) ?? null,
    username: (row.username as string | null) ?? null,
    metadata: (row.metadata as Record<string, unknown>) ?? {},
    isAdmin: row.is_admin as boolean,
    isCoreAccount: row.is_core_account as boolean,
    tokenVersion: row.token_version as number,
    lastLogin: (row.last_login as Date | null) ?? null,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
  };
}

const owned = (db: Knex, tenant: Tenant) =>
  db('users').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

/** Emails are compared trimmed and lowercased (RESOLUTIONS 3). */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

const BY_ID = `select ${COLUMNS.join(', ')} from users where tenant_id = $1 and project_id = $2 and id = $3`;

/** Every GET /me runs this, so it is a prepared statement (see preparedFirst). */
export async function findUserById(db: Knex, tenant: Tenant, id: string): Promise<UserRecord | null> {
  if (![tenant.tenantId, tenant.projectId, id].every(isUuid)) return null;
  const row = await preparedFirst(db, 'auth_user_by_id', BY_ID, [tenant.tenantId, tenant.projectId, id]);
  return row ? userFromRow(row) : null;
}

export async function findUserByEmail(db: Knex, tenant: Tenant, email: string): Promise<UserRecord | null> {
  const row: UserRow | undefined = await owned(db, tenant)
    .where({ email: normalizeEmail(email) })
    .first(COLUMNS);
  return row ? userFromRow(row) : null;
}

export interface NewUser {
  email: string;
  passwordHash: string;
  metadata: Record<string, unknown>;
}

/** Inserts a user; null when the email is already taken in this project. */
export async function insertUser(db: Knex, tenant: Tenant, input: NewUser): Promise<UserRecord | null> {
  const rows: UserRow[] = await db('users')
    .insert({
      id: randomUUID(),
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
      email: normalizeEmail(input.email),
      password_hash: input.passwordHash,
      metadata: JSON.stringify(input.metadata),
    })
    .onConflict(['tenant_id', 'project_id', 'email'])
    .ignore()
    .returning(COLUMNS);
  return rows.length ? userFromRow(rows[0]) : null;
}

async function updateReturning(db: Knex, tenant: Tenant, id: string, changes: Record<string, unknown>) {
  const rows: UserRow[] = await owned(db, tenant).where({ id }).update(changes).returning(COLUMNS);
  return rows.length ? userFromRow(rows[0]) : null;
}

export interface ProfileChanges {
  phoneNumber?: string | null;
  avatarUrl?: string | null;
  username?: string | null;
  /** Shallow-merged into the stored metadata. */
  metadata?: Record<string, unknown>;
}

export async function updateProfile(
  db: Knex,
  tenant: Tenant,
  id: string,
  changes: ProfileChanges,
): Promise<UserRecord | null> {
  const update: Record<string, unknown> = { updated_at: db.fn.now() };
  if (changes.phoneNumber !== undefined) {
    update.phone_number = changes.phoneNumber;
    // A different number has not been verified yet.
    update.phone_verified = db.raw('phone_verified and phone_number is not distinct from ?', [changes.phoneNumber]);
  }
  if (changes.avatarUrl !== undefined) update.avatar_url = changes.avatarUrl;
  if (changes.username !== undefined) update.username = changes.username;
  if (changes.metadata !== undefined)
    update.metadata = db.raw('metadata || ?::jsonb', [JSON.stringify(changes.metadata)]);
  return updateReturning(db, tenant, id, update);
}

/** Removes the named top-level metadata keys, or every key when `keys` is empty. */
export async function removeMetadata(db: Knex, tenant: Tenant, id: string, keys: string[]): Promise<UserRecord | null> {
  // The keys travel as one JSON parameter (knex would spread a JS array into a list).
  const metadata = keys.length
    ? db.raw('metadata - array(select jsonb_array_elements_text(?::jsonb))', [JSON.stringify(keys)])
    : db.raw("'{}'::jsonb");
  return updateReturning(db, tenant, id, { metadata, updated_at: db.fn.now() });
}

/** Ends every session of the user: refresh tokens issued under the old version stop working. */
export async function bumpTokenVersion(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await owned(db, tenant)
    .where({ id })
    .update({ token_version: db.raw('token_version + 1') });
}

/** A new password also ends every session (the caller lifts the email's lockout). */
export async function setPassword(
  db: Knex,
  tenant: Tenant,
  id: string,
  passwordHash: string,
): Promise<UserRecord | null> {
  return updateReturning(db, tenant, id, {
    password_hash: passwordHash,
    token_version: db.raw('token_version + 1'),
    updated_at: db.fn.now(),
  });
}

export async function markEmailVerified(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await owned(db, tenant).where({ id }).update({ email_verified: true, updated_at: db.fn.now() });
}
