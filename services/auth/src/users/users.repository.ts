import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantBindings, tenantColumns, tenantTable, type Tenant } from '@platform/db';
import { isUuid } from '@platform/tenancy';
import { preparedFirst } from '../db/prepared';
import { normalizeEmail } from './user-email';
import { USER_COLUMNS, type UserRow } from './users.model';

export type { UserRow } from './users.model';

// Untyped builder: writes pass raw expressions and JSON text; reads come back as UserRow.
const users = (db: Knex, tenant: Tenant) => tenantTable(db, tenant, 'users');

const BY_ID = `select ${USER_COLUMNS.join(', ')} from users where tenant_id = $1 and project_id = $2 and id = $3`;

/** Every GET /me runs this, so it is a prepared statement (see preparedFirst). */
export async function findUserById(db: Knex, tenant: Tenant, id: string): Promise<UserRow | null> {
  if (![tenant.tenantId, tenant.projectId, id].every(isUuid)) return null;
  return preparedFirst<UserRow>(db, 'auth_user_by_id', BY_ID, [tenant.tenantId, tenant.projectId, id]);
}

export async function findUserByEmail(db: Knex, tenant: Tenant, email: string): Promise<UserRow | null> {
  const row = await users(db, tenant)
    .where({ email: normalizeEmail(email) })
    .first(...USER_COLUMNS);
  return (row as UserRow | undefined) ?? null;
}

export interface NewUser {
  /** Null for an anonymous user. */
  email: string | null;
  passwordHash: string | null;
  metadata: Record<string, unknown>;
  /** Proved by the way the account is created (an e-mail code, a provider's verified e-mail). */
  emailVerified?: boolean;
  anonymous?: boolean;
}

/** Inserts a user; null when the email is already taken in this project. */
export async function insertUser(db: Knex, tenant: Tenant, input: NewUser): Promise<UserRow | null> {
  const rows = await users(db, tenant)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      email: input.email === null ? null : normalizeEmail(input.email),
      password_hash: input.passwordHash,
      metadata: JSON.stringify(input.metadata),
      email_verified: input.emailVerified ?? false,
      anonymous_since: input.anonymous ? db.fn.now() : null,
    })
    .onConflict(['tenant_id', 'project_id', 'email'])
    .ignore()
    .returning<UserRow[]>([...USER_COLUMNS]);
  return rows[0] ?? null;
}

async function updateReturning(
  db: Knex,
  tenant: Tenant,
  id: string,
  changes: Record<string, unknown>,
): Promise<UserRow | null> {
  const rows = await users(db, tenant)
    .where({ id })
    .update(changes)
    .returning<UserRow[]>([...USER_COLUMNS]);
  return rows[0] ?? null;
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
): Promise<UserRow | null> {
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
export async function removeMetadata(db: Knex, tenant: Tenant, id: string, keys: string[]): Promise<UserRow | null> {
  // The keys travel as one JSON parameter (knex would spread a JS array into a list).
  const metadata = keys.length
    ? db.raw('metadata - array(select jsonb_array_elements_text(?::jsonb))', [JSON.stringify(keys)])
    : db.raw("'{}'::jsonb");
  return updateReturning(db, tenant, id, { metadata, updated_at: db.fn.now() });
}

/** Ends every session of the user: refresh tokens issued under the old version stop working. */
export async function bumpTokenVersion(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await users(db, tenant)
    .where({ id })
    .update({ token_version: db.raw('token_version + 1') });
}

/** A new password also ends every session (the caller lifts the email's lockout). */
export async function setPassword(db: Knex, tenant: Tenant, id: string, passwordHash: string): Promise<UserRow | null> {
  return updateReturning(db, tenant, id, {
    password_hash: passwordHash,
    token_version: db.raw('token_version + 1'),
    updated_at: db.fn.now(),
  });
}

/**
 * An anonymous user signs up: the e-mail (and password, when one is given) become theirs and the
 * user stops being anonymous, same id. Null when the user is not anonymous any more or the
 * e-mail is taken in the project.
 */
export async function convertAnonymous(
  db: Knex,
  tenant: Tenant,
  id: string,
  account: { email: string; passwordHash: string | null; emailVerified: boolean },
): Promise<UserRow | null> {
  const rows = await db.raw<{ rows: UserRow[] }>(
    `update users set email = :email, password_hash = coalesce(:passwordHash, password_hash),
            email_verified = :emailVerified, anonymous_since = null, updated_at = now()
      where tenant_id = :tenantId and project_id = :projectId and id = :id and anonymous_since is not null
        and not exists (select 1 from users o
                         where o.tenant_id = :tenantId and o.project_id = :projectId and o.email = :email)
      returning ${USER_COLUMNS.join(', ')}`,
    {
      ...tenantBindings(tenant),
      id,
      email: normalizeEmail(account.email),
      passwordHash: account.passwordHash,
      emailVerified: account.emailVerified,
    },
  );
  return rows.rows[0] ?? null;
}

/** A provider sign-in made an anonymous user a full one (the provider's e-mail may not be theirs to keep). */
export async function endAnonymity(db: Knex, tenant: Tenant, id: string): Promise<UserRow | null> {
  return updateReturning(db, tenant, id, { anonymous_since: null, updated_at: db.fn.now() });
}

export async function markEmailVerified(db: Knex, tenant: Tenant, id: string): Promise<void> {
  await users(db, tenant).where({ id }).update({ email_verified: true, updated_at: db.fn.now() });
}

export interface UserListQuery {
  /** Only users whose email starts with this (lowercase) text. */
  prefix?: string;
  /** Only users after this email, in byte order. */
  after?: string;
  limit: number;
}

// Above every character: `prefix || TOP` bounds the emails that start with `prefix`.
const TOP = '\u{10FFFF}';

/** A page of the project's users in email byte order (the users_by_email index), by prefix and after a cursor. */
export async function listUsers(db: Knex, tenant: Tenant, query: UserListQuery): Promise<UserRow[]> {
  // Anonymous users have no e-mail to page by: GET /users lists the users who signed up.
  const rows = await users(db, tenant)
    .whereNotNull('email')
    .modify((q) => {
      if (query.prefix)
        q.whereRaw('email collate "C" >= ? and email collate "C" < ?', [query.prefix, `${query.prefix}${TOP}`]);
      if (query.after !== undefined) q.whereRaw('email collate "C" > ?', [query.after]);
    })
    .orderByRaw('email collate "C"')
    .limit(query.limit)
    .select(...USER_COLUMNS);
  return rows as UserRow[];
}

/**
 * Disables (every session ends with it: the token version moves on) or enables a user; the
 * time of a disabling is kept when it is disabled again.
 */
export async function setDisabled(db: Knex, tenant: Tenant, id: string, disabled: boolean): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  return updateReturning(
    db,
    tenant,
    id,
    disabled
      ? {
          disabled_at: db.raw('coalesce(disabled_at, now())'),
          token_version: db.raw('token_version + 1'),
          updated_at: db.fn.now(),
        }
      : { disabled_at: null, updated_at: db.fn.now() },
  );
}

/** Deletes a user and, by cascade, their refresh and account tokens; false when there was none. */
/** The deleted user's address (null when they had none), or null when there was no such user. */
export async function deleteUser(db: Knex, tenant: Tenant, id: string): Promise<{ email: string | null } | null> {
  if (!isUuid(id)) return null;
  const [row] = (await users(db, tenant).where({ id }).delete().returning('email')) as { email: string | null }[];
  return row ?? null;
}

/** A sign-in that did not go through the one-statement password path (MFA, passkey). */
export async function markSignedIn(db: Knex, tenant: Tenant, id: string): Promise<UserRow | null> {
  return updateReturning(db, tenant, id, { last_login: db.fn.now() });
}
