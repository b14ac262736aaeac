import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '../context';
import { emailKey } from '../lockout/login-failures.repository';
import { normalizeEmail, USER_COLUMNS, userFromRow, type UserRecord, type UserRow } from '../users/users.repository';

export interface LoginAttempt {
  /** The account with the email, if there is one. */
  user: UserRecord | null;
  /** The lock on the email, account or not (it may lie in the past). */
  lockedUntil: Date | null;
}

// One statement for every email, always one row: the account (if any) and the email's lock.
const LOGIN_ATTEMPT = `
select ${USER_COLUMNS.map((c) => `u.${c}`).join(', ')}, f.locked_until as email_locked_until
  from (select 1) as attempt
  left join users u on u.tenant_id = ? and u.project_id = ? and u.email = ?
  left join login_failures f on f.tenant_id = ? and f.project_id = ? and f.email_hash = ?`;

export async function findLoginAttempt(db: Knex, tenant: Tenant, email: string): Promise<LoginAttempt> {
  const { tenantId, projectId } = tenant;
  const result = await db.raw<{ rows: UserRow[] }>(LOGIN_ATTEMPT, [
    tenantId,
    projectId,
    normalizeEmail(email),
    tenantId,
    projectId,
    emailKey(email),
  ]);
  const row = result.rows[0];
  return {
    user: row.id ? userFromRow(row) : null,
    lockedUntil: (row.email_locked_until as Date | null) ?? null,
  };
}

export interface FirstRefreshToken {
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
}

const returned = USER_COLUMNS.map((c) => `signed_in.${c}`).join(', ');

// One statement, one round trip: the login path is already paying for bcrypt. The users row is
// locked before the login_failures row, the order a password reset takes too.
const SIGN_IN = `
with signed_in as (
  update users
     set last_login = now()
   where tenant_id = ? and project_id = ? and id = ? and password_hash = ?
     and not exists (
       select 1 from login_failures
        where tenant_id = ? and project_id = ? and email_hash = ? and locked_until > now())
  returning ${USER_COLUMNS.join(', ')}
), run_ended as (
  delete from login_failures
   where tenant_id = ? and project_id = ? and email_hash = ?
     and (locked_until is null or locked_until <= now())
     and exists (select 1 from signed_in)
), issued as (
  insert into refresh_tokens (id, tenant_id, project_id, user_id, family_id, token_version, token_hash, expires_at)
  select ?, tenant_id, project_id, id, ?, token_version, ?, ? from signed_in
)
select ${returned} from signed_in`;

/**
 * Records a successful login: forgets the email's failures, sets last_login and stores the
 * first refresh token of a new family under the user's current token version, all atomically
 * and only while the email is unlocked and the password is still the hash that was checked
 * (a concurrent failure may have locked it, or a reset changed it, while bcrypt ran). Null when
 * either no longer holds. A lock set by a failure that races this very statement is kept.
 */
export async function recordSignIn(
  db: Knex,
  tenant: Tenant,
  checked: Pick<UserRecord, 'id' | 'email' | 'passwordHash'>,
  token: FirstRefreshToken,
): Promise<UserRecord | null> {
  const { tenantId, projectId } = tenant;
  const key = emailKey(checked.email);
  const result = await db.raw<{ rows: UserRow[] }>(SIGN_IN, [
    tenantId,
    projectId,
    checked.id,
    checked.passwordHash,
    tenantId,
    projectId,
    key,
    tenantId,
    projectId,
    key,
    randomUUID(),
    token.familyId,
    token.tokenHash,
    token.expiresAt,
  ]);
  return result.rows.length ? userFromRow(result.rows[0]) : null;
}
