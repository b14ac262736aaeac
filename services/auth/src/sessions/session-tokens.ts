import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { randomToken, sha256Hex, signAccessToken } from '@platform/tenancy';
import type { AuthContext, Tenant } from '../context';
import type { UserRecord } from '../users/users.repository';
import { insertRefreshToken } from './refresh-tokens.repository';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * A 15-minute RS256 access token and a 30-day opaque refresh token (stored as its SHA-256).
 * A login starts a new family; a rotation passes its family on.
 */
export async function issueSession(
  trx: Knex.Transaction,
  ctx: AuthContext,
  tenant: Tenant,
  user: UserRecord,
  familyId: string = randomUUID(),
): Promise<SessionTokens> {
  const refreshToken = randomToken('rt_', 32);
  await insertRefreshToken(trx, tenant, {
    userId: user.id,
    familyId,
    tokenVersion: user.tokenVersion,
    tokenHash: sha256Hex(refreshToken),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  const accessToken = signAccessToken(
    {
      userId: user.id,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      email: user.email,
      tokenVersion: user.tokenVersion,
    },
    ctx.jwt.privateKey,
  );
  return { accessToken, refreshToken };
}
