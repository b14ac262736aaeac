import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import type { Logger } from '@platform/http';
import { AppError, errors, type AccessTokenClaims, type TenantContext } from '@platform/tenancy';
import { checkAccountToken, emailAccountLink, redeemAccountToken } from '../account-tokens/account-tokens.service';
import { clearLoginFailures, recordLoginFailure } from '../lockout/lockout.service';
import { lockoutSubject } from '../users/user-email';
import { restampFamily } from '../sessions/session-tokens';
import { recordEvents } from '../audit/audit.service';
import type { Actor, ClientInfo } from '../shared/client';
import { endSessions, ownerOfClaims } from '../user-sessions/user-sessions.service';
import { takeAtLeast } from '../timing/take-at-least';
import { findUserByEmail, findUserById, setPassword } from '../users/users.service';
import type { PasswordHasher } from './password-hasher';

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this email, a password reset link has been sent';

const resetExpired = () => new AppError('TOKEN_EXPIRED', 'Password reset token has expired; request a new one');

/** The least time forgot-password takes (AUTH_FORGOT_PASSWORD_MIN_MS), and where an overrun is told. */
export interface ResponseFloor {
  minMs: number;
  logger: Logger;
}

/**
 * Same answer, in the same time, whether or not the account exists, so the endpoint cannot be
 * used to probe emails.
 */
export async function forgotPassword(
  db: Knex,
  relay: { kick(): void },
  appUrl: string,
  floor: ResponseFloor,
  tenant: TenantContext,
  email: string,
) {
  // A real account costs a durably committed transaction (token + outbox event) that an unknown
  // email has no honest equivalent for: a dummy transaction that writes nothing skips the WAL
  // flush, and a rolled-back one differs too. So both answers wait for a fixed floor set far
  // above the real path; an overrun (a stalled database) is logged, and the per-email rate
  // limit keeps an attacker from collecting enough samples to catch the rare one.
  const floorMs = floor.minMs;
  await takeAtLeast(
    floorMs,
    async () => {
      const user = await findUserByEmail(db, tenant, email);
      if (user?.email)
        await emailAccountLink(db, relay, tenant, { ...user, email: user.email }, 'reset_password', appUrl);
    },
    (elapsedMs) =>
      floor.logger.warn('forgot-password took longer than its floor; raise AUTH_FORGOT_PASSWORD_MIN_MS', {
        elapsedMs: Math.round(elapsedMs),
        floorMs,
      }),
  );
  return { success: true as const, message: FORGOT_PASSWORD_MESSAGE };
}

/** Sets the new password, uses up the token and ends every session of the user. */
export async function resetPassword(
  db: Knex,
  passwords: PasswordHasher,
  tenant: Tenant,
  input: { token: string; password: string },
  client: ClientInfo,
) {
  // Refuse a bad token before spending a bcrypt hash on it.
  await checkAccountToken(db, tenant, 'reset_password', input.token, resetExpired);
  const passwordHash = await passwords.hash(input.password);
  await db.transaction(async (trx) => {
    const record = await redeemAccountToken(trx, tenant, 'reset_password', input.token, resetExpired);
    const user = await setPassword(trx, tenant, record.user_id, passwordHash);
    // The owner of the email proved it: the failures counted against it go, and the lock with them.
    if (user) await clearLoginFailures(trx, tenant, lockoutSubject(user));
    await recordEvents(trx, tenant, { type: 'password_reset', userId: record.user_id, client });
    await endSessions(trx, tenant, { userId: record.user_id }, 'password_reset', { client });
  });
  return { success: true as const, message: 'Password has been reset' };
}

/**
 * A signed-in user changes their password: the current one must be right (a wrong one counts
 * toward the lockout like a failed login), and every other session ends; the session that asked
 * goes on.
 */
export async function changePassword(
  db: Knex,
  passwords: PasswordHasher,
  claims: AccessTokenClaims,
  input: { currentPassword: string; newPassword: string },
  actor: Actor,
) {
  const tenant = ownerOfClaims(claims);
  const user = await findUserById(db, tenant, claims.userId);
  if (!user) throw errors.invalidSession();
  if (!(await passwords.verify(input.currentPassword, user.password_hash))) {
    const locked = await recordLoginFailure(db, tenant, lockoutSubject(user));
    await recordEvents(
      db,
      tenant,
      { type: 'sign_in_failed', userId: user.id, ...actor, data: { reason: 'wrong_current_password' } },
      ...(locked ? [{ type: 'lockout' as const, userId: user.id, ...actor }] : []),
    );
    throw new AppError('INVALID_CREDENTIALS', 'Current password is wrong');
  }
  const passwordHash = await passwords.hash(input.newPassword);
  await db.transaction(async (trx) => {
    const changed = await setPassword(trx, tenant, user.id, passwordHash);
    if (!changed) throw errors.invalidSession();
    await recordEvents(trx, tenant, { type: 'password_changed', userId: user.id, ...actor });
    await endSessions(trx, tenant, { userId: user.id, except: claims.sessionId }, 'password_change', actor);
    if (claims.sessionId) await restampFamily(trx, tenant, claims.sessionId, changed.token_version);
  });
  return { success: true as const, message: 'Password has been changed' };
}
