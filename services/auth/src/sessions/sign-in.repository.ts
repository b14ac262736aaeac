import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantBindings, type Tenant } from '@platform/db';
import type { NewSession } from '../user-sessions/user-sessions.model';
import { sessionColumns } from '../user-sessions/user-sessions.service';
import { emailKey, lockoutSubject, normalizeEmail } from '../users/user-email';
import { USER_COLUMNS, type UserRow } from '../users/users.model';

export interface LoginAttempt {
  /** The account with the email, if there is one. */
  user: UserRow | null;
  /** The lock on the email, account or not (it may lie in the past). */
  lockedUntil: Date | null;
}

// One statement for every email, always one row: the account (if any) and the email's lock.
const LOGIN_ATTEMPT = `
select ${USER_COLUMNS.map((c) => `u.${c}`).join(', ')}, f.locked_until as email_locked_until
  from (select 1) as attempt
  left join users u on u.tenant_id = :tenantId and u.project_id = :projectId and u.email = :email
  left join login_failures f on f.tenant_id = :tenantId and f.project_id = :projectId and f.email_hash = :emailHash`;

type AttemptRow = { [K in keyof UserRow]: UserRow[K] | null } & { email_locked_until: Date | null };

export async function findLoginAttempt(db: Knex, tenant: Tenant, email: string): Promise<LoginAttempt> {
  const result = await db.raw<{ rows: AttemptRow[] }>(LOGIN_ATTEMPT, {
    ...tenantBindings(tenant),
    email: normalizeEmail(email),
    emailHash: emailKey(email),
  });
  const { email_locked_until: lockedUntil, ...user } = result.rows[0];
  // A left join without an account leaves every user column null.
  return { user: user.id ? (user as UserRow) : null, lockedUntil };
}

/** The session a sign-in starts (its id is the family of its refresh tokens) and its first token's hash. */
export interface FirstRefreshToken {
  session: Omit<NewSession, 'userId'>;
  tokenHash: string;
}

const returned = USER_COLUMNS.map((c) => `signed_in.${c}`).join(', ');

// One statement, one round trip: the login path is already paying for bcrypt. The users row is
// locked before the login_failures row, the order a password reset takes too.
const SIGN_IN = `
with signed_in as (
  update users
     set last_login = now()
   where tenant_id = :tenantId and project_id = :projectId and id = :userId and password_hash = :passwordHash
     and not exists (
       select 1 from login_failures
        where tenant_id = :tenantId and project_id = :projectId and email_hash = :emailHash and locked_until > now())
  returning ${USER_COLUMNS.join(', ')}
), run_ended as (
  delete from login_failures
   where tenant_id = :tenantId and project_id = :projectId and email_hash = :emailHash
     and (locked_until is null or locked_until <= now())
     and exists (select 1 from signed_in)
), started as (
  insert into sessions (id, tenant_id, project_id, user_id, method, aal, ip, user_agent, device_label, expires_at)
  select :familyId, tenant_id, project_id, id, :method, :aal, :ip, :userAgent, :deviceLabel, :expiresAt from signed_in
), issued as (
  insert into refresh_tokens (id, tenant_id, project_id, user_id, family_id, token_version, token_hash, expires_at)
  select :tokenId, tenant_id, project_id, id, :familyId, token_version, :tokenHash, :expiresAt from signed_in
)
select ${returned} from signed_in`;

/**
 * Records a successful login: forgets the email's failures, sets last_login, starts the session
 * and stores its first refresh token (a new family) under the user's current token version, all atomically
 * and only while the email is unlocked and the password is still the hash that was checked
 * (a concurrent failure may have locked it, or a reset changed it, while bcrypt ran). Null when
 * either no longer holds. A lock set by a failure that races this very statement is kept.
 */
export async function recordSignIn(
  db: Knex,
  tenant: Tenant,
  checked: Pick<UserRow, 'id' | 'email' | 'password_hash'>,
  token: FirstRefreshToken,
): Promise<UserRow | null> {
  const session = sessionColumns({ ...token.session, userId: checked.id });
  const result = await db.raw<{ rows: UserRow[] }>(SIGN_IN, {
    ...tenantBindings(tenant),
    userId: checked.id,
    passwordHash: checked.password_hash,
    emailHash: emailKey(lockoutSubject(checked)),
    tokenId: randomUUID(),
    familyId: session.id,
    method: session.method,
    aal: session.aal,
    ip: session.ip,
    userAgent: session.user_agent,
    deviceLabel: session.device_label,
    tokenHash: token.tokenHash,
    expiresAt: session.expires_at,
  });
  return result.rows[0] ?? null;
}
