import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { randomToken, sha256Hex, signAccessToken, type ProjectSettings } from '@platform/tenancy';
import type { Tenant } from '@platform/db';
import type { AccessTokenSigner } from '../issuer';
import type { ClientInfo } from '../shared/client';
import type { AssuranceLevel, SignInMethod } from '../user-sessions/user-sessions.model';
import { insertSession } from '../user-sessions/user-sessions.service';
import type { UserRow } from '../users/users.model';
import { insertRefreshToken } from './refresh-tokens.repository';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

/** A 30-day opaque refresh token and what is stored of it (its SHA-256, never the token). */
export function mintRefreshToken(): { refreshToken: string; tokenHash: string; expiresAt: Date } {
  const refreshToken = randomToken('rt_', 32);
  return { refreshToken, tokenHash: sha256Hex(refreshToken), expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS) };
}

/** The session an access token is issued for: its id (`sid`) and assurance level (`aal`). */
export interface TokenSession {
  id: string;
  aal: AssuranceLevel;
  /** The project requires MFA and the session has none: the token is good only for enrolling. */
  enrollmentOnly?: boolean;
}

/** Whether a session of this level gets enrollment-only tokens in this project (`requireMfa`). */
export const enrollmentOnly = (settings: ProjectSettings, aal: AssuranceLevel): boolean =>
  settings.requireMfa === true && aal !== 'aal2';

/** A 15-minute RS256 access token naming the user, tenant, project, token version and session. */
export function accessTokenFor(
  signer: AccessTokenSigner,
  tenant: Tenant,
  user: UserRow,
  session: TokenSession,
): string {
  return signAccessToken(
    {
      userId: user.id,
      tenantId: tenant.tenantId,
      projectId: tenant.projectId,
      email: user.email ?? '',
      tokenVersion: user.token_version,
      sessionId: session.id,
      aal: session.aal,
      enrollmentOnly: session.enrollmentOnly,
      isAnonymous: user.anonymous_since !== null,
    },
    signer.signingKey,
    undefined,
    signer.keyId,
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
  user: UserRow,
  familyId: string,
): Promise<string> {
  const { refreshToken, tokenHash, expiresAt } = mintRefreshToken();
  await insertRefreshToken(trx, tenant, {
    userId: user.id,
    familyId,
    tokenVersion: user.token_version,
    tokenHash,
    expiresAt,
  });
  return refreshToken;
}

/** How a new session was signed in to, and from where. */
export interface SignIn {
  method: SignInMethod;
  aal: AssuranceLevel;
  client: ClientInfo;
}

/** Starts a session for the user and stores its first refresh token, in the caller's transaction. */
export async function startSession(
  trx: Knex.Transaction,
  tenant: Tenant,
  user: UserRow,
  signIn: SignIn,
): Promise<{ session: TokenSession; refreshToken: string }> {
  const session = { id: randomUUID(), aal: signIn.aal };
  await insertSession(trx, tenant, {
    id: session.id,
    userId: user.id,
    method: signIn.method,
    aal: signIn.aal,
    client: signIn.client,
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  return { session, refreshToken: await storeRefreshToken(trx, tenant, user, session.id) };
}

/** A password reset ends every session of the user (for the passwords feature). */
export { restampFamily, revokeAllOfUser } from './refresh-tokens.repository';
