import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '../context';
import { USER_COLUMNS, userFromRow, type UserRecord, type UserRow } from '../users/users.repository';

export interface FirstRefreshToken {
  familyId: string;
  tokenHash: string;
  expiresAt: Date;
}

const returned = USER_COLUMNS.map((c) => `signed_in.${c}`).join(', ');

// One statement, one round trip: the login path is already paying for bcrypt.
const SIGN_IN = `
with signed_in as (
  update users
     set failed_login_count = 0, locked_until = null, last_login = now()
   where tenant_id = ? and project_id = ? and id = ? and password_hash = ?
     and (locked_until is null or locked_until <= now())
  returning ${USER_COLUMNS.join(', ')}
), issued as (
  insert into refresh_tokens (id, tenant_id, project_id, user_id, family_id, token_version, token_hash, expires_at)
  select ?, tenant_id, project_id, id, ?, token_version, ?, ? from signed_in
)
select ${returned} from signed_in`;

/**
 * Records a successful login: resets the failure count, sets last_login and stores the first
 * refresh token of a new family under the user's current token version, all atomically and
 * only while the account is unlocked and its password is still the hash that was checked
 * (a concurrent failure may have locked it, or a reset changed it, while bcrypt ran).
 * Null when either no longer holds.
 */
export async function recordSignIn(
  db: Knex,
  tenant: Tenant,
  userId: string,
  checkedHash: string,
  token: FirstRefreshToken,
): Promise<UserRecord | null> {
  const result = await db.raw<{ rows: UserRow[] }>(SIGN_IN, [
    tenant.tenantId,
    tenant.projectId,
    userId,
    checkedHash,
    randomUUID(),
    token.familyId,
    token.tokenHash,
    token.expiresAt,
  ]);
  return result.rows.length ? userFromRow(result.rows[0]) : null;
}
