import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { randomToken, sha256Hex, signAccessToken } from '@platform/tenancy';
import type { AuthContext, Tenant } from '../context';
import type { UserRecord } from '../users/users.repository';
import { insertRefreshToken } from './refresh-tokens.repository';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

/** A 30-day opaque refresh token and what is stored of it (its SHA-256, never the token). */
export function mintRefreshToken(): { refreshToken: string; tokenHash: string; expiresAt: Date } {
  const refreshToken = randomToken('rt_', 32);
  return { refreshToken, tokenHash: sha256Hex(refreshToken), expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS) };
}

/** A 15-minute RS256 access token naming the user, tenant, project and token version. */
export function accessTokenFor(ctx: AuthContext, tenant: Tenant, user: UserRecord): string {
  return signAccessToken(
    {
      userId: user.id,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      email: user.email,
      tokenVersion: user.tokenVersion,
    },
    ctx.jwt.signingKey,
    undefined,
    ctx.jwt.keyId,
  );
}

/**
 * Stores a new refresh token under the user's current version and returns it. A rotation
 * passes its family on. The access token is signed by the caller after the transaction, so
 * that the RSA signature does not hold a connection (or a refresh token's row lock).
 */
export async function storeRefreshToken(
  trx: Knex.Transaction,
  tenant: Tenant,
  user: UserRecord,
  familyId: string = randomUUID(),
): Promise<string> {
  const { refreshToken, tokenHash, expiresAt } = mintRefreshToken();
  await insertRefreshToken(trx, tenant, {
    userId: user.id,
    familyId,
    tokenVersion: user.tokenVersion,
    tokenHash,
    expiresAt,
  });
  return refreshToken;
}
