import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '@platform/db';
import type { TenantContext } from '@platform/tenancy';
import type { Logger } from '@platform/http';
import { AppError, errors, sha256Hex } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { hasActiveFactor, startChallenge } from '../mfa/mfa.service';
import { accountLocked, isLocked } from '../lockout/lockout.policy';
import { recordLoginFailure } from '../lockout/lockout.service';
import { recordEvents } from '../audit/audit.service';
import type { Actor, ClientInfo } from '../shared/client';
import { endSessions, findSession, touchSession } from '../user-sessions/user-sessions.service';
import { toUser } from '../users/users.mapper';
import type { UserRow } from '../users/users.model';
import { bumpTokenVersion, findUserById } from '../users/users.service';
import {
  findRefreshToken,
  markRotated,
  revokeAllOfUser,
  revokeFamily,
  type RefreshTokenRow,
} from './refresh-tokens.repository';
import {
  accessTokenFor,
  mintRefreshToken,
  REFRESH_TOKEN_TTL_MS,
  enrollmentOnly,
  storeRefreshToken,
  type TokenSession,
} from './session-tokens';
import { findLoginAttempt, recordSignIn } from './sign-in.repository';

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Invalid email or password');

export async function login(
  db: Knex,
  issuer: Issuer,
  tenant: TenantContext,
  input: { email: string; password: string },
  client: ClientInfo,
) {
  // The lock belongs to the email, account or none: an unknown email locks and answers alike.
  const { user: found, lockedUntil } = await findLoginAttempt(db, tenant, input.email);
  const failed = (reason: string) => ({
    type: 'sign_in_failed' as const,
    userId: found?.id ?? null,
    client,
    data: { reason },
  });
  if (isLocked(lockedUntil)) {
    await recordEvents(db, tenant, failed('locked'));
    throw accountLocked(lockedUntil);
  }
  // Unknown email and wrong password take the same path through bcrypt and give the same answer.
  const matches = await issuer.passwords.verify(input.password, found?.password_hash ?? null);
  if (!found || !matches) {
    // The same statements on the same kinds of row for both, so both cost and count the same.
    const locked = await recordLoginFailure(db, tenant, input.email);
    await recordEvents(
      db,
      tenant,
      failed(found ? 'wrong_password' : 'unknown_email'),
      ...(locked ? [{ type: 'lockout' as const, userId: found?.id ?? null, client }] : []),
    );
    throw invalidCredentials();
  }
  // Told only to whoever knows the password, so it reveals nothing about the account to others.
  if (found.disabled_at) throw errors.forbidden('This account is disabled');
  // The password was right; with a second factor active, it is only half a sign-in.
  if (await hasActiveFactor(db, tenant, found.id)) return startChallenge(db, tenant, found);
  const { refreshToken, tokenHash, expiresAt } = mintRefreshToken();
  const session: TokenSession = {
    id: randomUUID(),
    aal: 'aal1',
    enrollmentOnly: enrollmentOnly(tenant.settings, 'aal1'),
  };
  const user = await recordSignIn(db, tenant, found, {
    session: { id: session.id, method: 'password', aal: session.aal, client, expiresAt },
    tokenHash,
  });
  if (!user) {
    // While bcrypt ran, a concurrent failure locked the email or a reset changed the password.
    const current = await findLoginAttempt(db, tenant, input.email);
    const until = current.lockedUntil;
    await recordEvents(db, tenant, failed(isLocked(until) ? 'locked' : 'password_changed_meanwhile'));
    if (isLocked(until)) throw accountLocked(until);
    throw invalidCredentials();
  }
  await recordEvents(db, tenant, {
    type: 'sign_in',
    userId: user.id,
    client,
    sessionId: session.id,
    data: { method: 'password', aal: session.aal },
  });
  return {
    success: true as const,
    user: toUser(user),
    accessToken: accessTokenFor(issuer.signer, tenant, user, session),
    refreshToken,
  };
}

type RefreshOutcome =
  | { kind: 'invalid' }
  | { kind: 'reused'; record: RefreshTokenRow }
  | { kind: 'rotated'; user: UserRow; session: TokenSession; refreshToken: string };

/**
 * Rotates a refresh token. A token that was already rotated means two parties hold the same
 * chain (one of them a thief): the whole family dies, and the call fails like any bad token.
 */
export async function refresh(
  db: Knex,
  issuer: Issuer,
  logger: Logger,
  tenant: TenantContext,
  refreshToken: string,
  client: ClientInfo,
) {
  const outcome = await db.transaction(async (trx): Promise<RefreshOutcome> => {
    const record = await findRefreshToken(trx, tenant, sha256Hex(refreshToken), { forUpdate: true });
    if (!record || record.revoked_at) return { kind: 'invalid' };
    if (record.rotated_at) {
      // Committed before the 401 is thrown, so the revocation sticks: the session ends with it.
      await revokeFamily(trx, tenant, record.family_id);
      await recordEvents(trx, tenant, {
        type: 'refresh_token_reused',
        userId: record.user_id,
        client,
        sessionId: record.family_id,
      });
      const actor = { client };
      await endSessions(trx, tenant, { userId: record.user_id, only: record.family_id }, 'reuse_detected', actor);
      return { kind: 'reused', record };
    }
    if (record.expires_at.getTime() <= Date.now()) return { kind: 'invalid' };
    const session = await findSession(trx, tenant, record.family_id);
    if (!session || session.ended_at) return { kind: 'invalid' };
    const user = await findUserById(trx, tenant, record.user_id);
    // Logout or a password reset raised the version: tokens from before it are dead.
    if (!user || user.disabled_at || user.token_version !== record.token_version) return { kind: 'invalid' };
    await markRotated(trx, tenant, record.id);
    const next = await storeRefreshToken(trx, tenant, user, record.family_id);
    await touchSession(trx, tenant, session.id, new Date(Date.now() + REFRESH_TOKEN_TTL_MS));
    const tokenSession = {
      id: session.id,
      aal: session.aal,
      enrollmentOnly: enrollmentOnly(tenant.settings, session.aal),
    };
    return { kind: 'rotated', user, session: tokenSession, refreshToken: next };
  });
  if (outcome.kind === 'reused') {
    logger.warn('refresh token reuse detected, session family revoked', {
      userId: outcome.record.user_id,
      familyId: outcome.record.family_id,
    });
  }
  if (outcome.kind !== 'rotated') throw errors.invalidSession('Refresh token is invalid or expired');
  return {
    success: true as const,
    user: toUser(outcome.user),
    accessToken: accessTokenFor(issuer.signer, tenant, outcome.user, outcome.session),
    refreshToken: outcome.refreshToken,
  };
}

/** Ends every session of the token's user; an unknown token is already logged out (200). */
export async function logout(db: Knex, tenant: Tenant, refreshToken: string, actor: Actor) {
  const record = await findRefreshToken(db, tenant, sha256Hex(refreshToken));
  if (record) {
    await db.transaction(async (trx) => {
      await bumpTokenVersion(trx, tenant, record.user_id);
      await revokeAllOfUser(trx, tenant, record.user_id);
      await endSessions(trx, tenant, { userId: record.user_id }, 'logout', { ...actor, sessionId: record.family_id });
    });
  }
  return { success: true as const, message: 'Logged out' };
}
