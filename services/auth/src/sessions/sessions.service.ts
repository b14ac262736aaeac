import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Owner } from '@platform/db';
import type { Logger } from '@platform/http';
import { AppError, errors, sha256Hex } from '@platform/tenancy';
import type { Issuer } from '../issuer';
import { accountLocked, isLocked } from '../lockout/lockout.policy';
import { recordLoginFailure } from '../lockout/lockout.service';
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
import { accessTokenFor, mintRefreshToken, storeRefreshToken } from './session-tokens';
import { findLoginAttempt, recordSignIn } from './sign-in.repository';

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Invalid email or password');

export async function login(db: Knex, issuer: Issuer, tenant: Owner, input: { email: string; password: string }) {
  // The lock belongs to the email, account or none: an unknown email locks and answers alike.
  const { user: found, lockedUntil } = await findLoginAttempt(db, tenant, input.email);
  if (isLocked(lockedUntil)) throw accountLocked(lockedUntil);
  // Unknown email and wrong password take the same path through bcrypt and give the same answer.
  const matches = await issuer.passwords.verify(input.password, found?.password_hash ?? null);
  if (!found || !matches) {
    // The same statement on the same kind of row for both, so both cost and count the same.
    await recordLoginFailure(db, tenant, input.email);
    throw invalidCredentials();
  }
  // Told only to whoever knows the password, so it reveals nothing about the account to others.
  if (found.disabled_at) throw errors.forbidden('This account is disabled');
  const { refreshToken, tokenHash, expiresAt } = mintRefreshToken();
  const user = await recordSignIn(db, tenant, found, { familyId: randomUUID(), tokenHash, expiresAt });
  if (!user) {
    // While bcrypt ran, a concurrent failure locked the email or a reset changed the password.
    const current = await findLoginAttempt(db, tenant, input.email);
    if (isLocked(current.lockedUntil)) throw accountLocked(current.lockedUntil);
    throw invalidCredentials();
  }
  return {
    success: true as const,
    user: toUser(user),
    accessToken: accessTokenFor(issuer.signer, tenant, user),
    refreshToken,
  };
}

type RefreshOutcome =
  | { kind: 'invalid' }
  | { kind: 'reused'; record: RefreshTokenRow }
  | { kind: 'rotated'; user: UserRow; refreshToken: string };

/**
 * Rotates a refresh token. A token that was already rotated means two parties hold the same
 * chain (one of them a thief): the whole family dies, and the call fails like any bad token.
 */
export async function refresh(db: Knex, issuer: Issuer, logger: Logger, tenant: Owner, refreshToken: string) {
  const outcome = await db.transaction(async (trx): Promise<RefreshOutcome> => {
    const record = await findRefreshToken(trx, tenant, sha256Hex(refreshToken), { forUpdate: true });
    if (!record || record.revoked_at) return { kind: 'invalid' };
    if (record.rotated_at) {
      // Committed before the 401 is thrown, so the revocation sticks.
      await revokeFamily(trx, tenant, record.family_id);
      return { kind: 'reused', record };
    }
    if (record.expires_at.getTime() <= Date.now()) return { kind: 'invalid' };
    const user = await findUserById(trx, tenant, record.user_id);
    // Logout or a password reset raised the version: tokens from before it are dead.
    if (!user || user.disabled_at || user.token_version !== record.token_version) return { kind: 'invalid' };
    await markRotated(trx, tenant, record.id);
    return { kind: 'rotated', user, refreshToken: await storeRefreshToken(trx, tenant, user, record.family_id) };
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
    accessToken: accessTokenFor(issuer.signer, tenant, outcome.user),
    refreshToken: outcome.refreshToken,
  };
}

/** Ends every session of the token's user; an unknown token is already logged out (200). */
export async function logout(db: Knex, tenant: Owner, refreshToken: string) {
  const record = await findRefreshToken(db, tenant, sha256Hex(refreshToken));
  if (record) {
    await db.transaction(async (trx) => {
      await bumpTokenVersion(trx, tenant, record.user_id);
      await revokeAllOfUser(trx, tenant, record.user_id);
    });
  }
  return { success: true as const, message: 'Logged out' };
}
