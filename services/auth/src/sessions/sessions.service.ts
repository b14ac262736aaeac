import { randomUUID } from 'node:crypto';
import { AppError, errors, sha256Hex } from '@platform/tenancy';
import type { AuthContext, Tenant } from '../context';
import { accountLocked, isLocked } from '../lockout/lockout.policy';
import { recordLoginFailure } from '../lockout/login-failures.repository';
import { toUserJson } from '../users/users.mapper';
import { bumpTokenVersion, findUserById, type UserRecord } from '../users/users.repository';
import {
  findRefreshToken,
  markRotated,
  revokeAllOfUser,
  revokeFamily,
  type RefreshTokenRecord,
} from './refresh-tokens.repository';
import { accessTokenFor, mintRefreshToken, storeRefreshToken } from './session-tokens';
import { findLoginAttempt, recordSignIn } from './sign-in.repository';

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Invalid email or password');

export async function login(ctx: AuthContext, tenant: Tenant, input: { email: string; password: string }) {
  // The lock belongs to the email, account or none: an unknown email locks and answers alike.
  const { user: found, lockedUntil } = await findLoginAttempt(ctx.db, tenant, input.email);
  if (isLocked(lockedUntil)) throw accountLocked(lockedUntil);
  // Unknown email and wrong password take the same path through bcrypt and give the same answer.
  const matches = await ctx.passwords.verify(input.password, found?.passwordHash ?? null);
  if (!found || !matches) {
    // The same statement on the same kind of row for both, so both cost and count the same.
    await recordLoginFailure(ctx.db, tenant, input.email);
    throw invalidCredentials();
  }
  const { refreshToken, tokenHash, expiresAt } = mintRefreshToken();
  const user = await recordSignIn(ctx.db, tenant, found, { familyId: randomUUID(), tokenHash, expiresAt });
  if (!user) {
    // While bcrypt ran, a concurrent failure locked the email or a reset changed the password.
    const current = await findLoginAttempt(ctx.db, tenant, input.email);
    if (isLocked(current.lockedUntil)) throw accountLocked(current.lockedUntil);
    throw invalidCredentials();
  }
  return {
    success: true as const,
    user: toUserJson(user),
    accessToken: accessTokenFor(ctx, tenant, user),
    refreshToken,
  };
}

type RefreshOutcome =
  | { kind: 'invalid' }
  | { kind: 'reused'; record: RefreshTokenRecord }
  | { kind: 'rotated'; user: UserRecord; refreshToken: string };

/**
 * Rotates a refresh token. A token that was already rotated means two parties hold the same
 * chain (one of them a thief): the whole family dies, and the call fails like any bad token.
 */
export async function refresh(ctx: AuthContext, tenant: Tenant, refreshToken: string) {
  const outcome = await ctx.db.transaction(async (trx): Promise<RefreshOutcome> => {
    const record = await findRefreshToken(trx, tenant, sha256Hex(refreshToken), { forUpdate: true });
    if (!record || record.revokedAt) return { kind: 'invalid' };
    if (record.rotatedAt) {
      // Committed before the 401 is thrown, so the revocation sticks.
      await revokeFamily(trx, tenant, record.familyId);
      return { kind: 'reused', record };
    }
    if (record.expiresAt.getTime() <= Date.now()) return { kind: 'invalid' };
    const user = await findUserById(trx, tenant, record.userId);
    // Logout or a password reset raised the version: tokens from before it are dead.
    if (!user || user.tokenVersion !== record.tokenVersion) return { kind: 'invalid' };
    await markRotated(trx, tenant, record.id);
    return { kind: 'rotated', user, refreshToken: await storeRefreshToken(trx, tenant, user, record.familyId) };
  });
  if (outcome.kind === 'reused') {
    ctx.logger.warn('refresh token reuse detected, session family revoked', {
      userId: outcome.record.userId,
      familyId: outcome.record.familyId,
    });
  }
  if (outcome.kind !== 'rotated') throw errors.invalidSession('Refresh token is invalid or expired');
  return {
    success: true as const,
    user: toUserJson(outcome.user),
    accessToken: accessTokenFor(ctx, tenant, outcome.user),
    refreshToken: outcome.refreshToken,
  };
}

/** Ends every session of the token's user; an unknown token is already logged out (200). */
export async function logout(ctx: AuthContext, tenant: Tenant, refreshToken: string) {
  const record = await findRefreshToken(ctx.db, tenant, sha256Hex(refreshToken));
  if (record) {
    await ctx.db.transaction(async (trx) => {
      await bumpTokenVersion(trx, tenant, record.userId);
      await revokeAllOfUser(trx, tenant, record.userId);
    });
  }
  return { success: true as const, message: 'Logged out' };
}
