import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { IssuerDirectory, IssuerMetadata } from './issuer-metadata';

/** What an ID token (and the userinfo it may point to) tells about the provider's account. */
export interface ProviderClaims {
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

export class IdTokenRejected extends Error {
  override readonly name = 'IdTokenRejected';
}

// Symmetric algorithms would make the client secret a signing key: only the issuer's own keys count.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Checks an ID token as OpenID Connect Core 3.1.3.7 asks: signed by a key of the issuer's JWKS
 * (fetched again once when the token names a key the cached set lacks), `iss` the issuer,
 * `aud` our client id (and `azp` it when there are several audiences), not expired, and the
 * `nonce` the one the flow sent.
 */
export async function verifyIdToken(
  issuers: IssuerDirectory,
  metadata: IssuerMetadata,
  idToken: string,
  expected: { clientId: string; nonce: string; now: number },
): Promise<JWTPayload> {
  const verify = async (fresh: boolean) =>
    jwtVerify(idToken, await issuers.keys(metadata, fresh), {
      issuer: metadata.issuer,
      audience: expected.clientId,
      algorithms: ALGORITHMS,
      clockTolerance: 60,
      currentDate: new Date(expected.now),
      requiredClaims: ['sub', 'exp', 'iat'],
    });
  let payload: JWTPayload;
  try {
    payload = (
      await verify(false).catch((error: unknown) => {
        if (error instanceof joseErrors.JWKSNoMatchingKey) return verify(true);
        throw error;
      })
    ).payload;
  } catch (error) {
    throw new IdTokenRejected((error as Error).message);
  }
  if (payload.nonce !== expected.nonce) throw new IdTokenRejected('nonce does not match the flow');
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId) {
    throw new IdTokenRejected('azp is not our client');
  }
  return payload;
}

/** `email_verified` is a boolean by the standard; some issuers send the string "true". */
export const isVerified = (value: unknown): boolean => value === true || value === 'true';

export function claimsOf(payload: Record<string, unknown>, subject: string): ProviderClaims {
  const email =
    typeof payload.email === 'string' && payload.email.includes('@') ? payload.email.trim().toLowerCase() : null;
  return { subject, email, emailVerified: email !== null && isVerified(payload.email_verified) };
}
