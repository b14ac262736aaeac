import type { RequestHandler } from 'express';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { headersOnly } from './body-order';
import { errors } from './errors';

/** What an access token says (issued by the Authentication service). */
export interface AccessTokenClaims {
  userId: string;
  tenantId: string;
  projectId: string;
  email: string;
  tokenVersion: number;
  /** The sign-in session the token was issued for (`sid`); absent in tokens from before sessions. */
  sessionId?: string;
  /** Authenticator assurance level (`aal`): `aal2` after a second factor or a passkey. */
  aal?: string;
  /**
   * Issued while the project requires MFA and the user has no factor yet (`scp: "mfa_enroll"`):
   * good only for enrolling one, so every verifier refuses it unless the route says otherwise.
   */
  enrollmentOnly?: boolean;
  /** A user who has not signed up yet (`is_anonymous`): no e-mail, no password, the same id once they do. */
  isAnonymous?: boolean;
  /** When the token expires (epoch seconds); set by verification. */
  expiresAt?: number;
}

interface RawClaims {
  sub?: string;
  tid?: string;
  pid?: string;
  email?: string;
  ver?: number;
  typ?: string;
  exp?: number;
  sid?: string;
  aal?: string;
  scp?: string;
  is_anonymous?: boolean;
  aud?: string | string[];
}

/** The `scp` of a token good only for enrolling a second factor. */
export const MFA_ENROLLMENT_SCOPE = 'mfa_enroll';

/** The audience (`aud`) of a project's access tokens: a verifier of that project checks it. */
export function accessTokenAudience(projectId: string): string {
  return `urn:platform:project:${projectId}`;
}

export const ACCESS_TOKEN_ALGORITHM = 'RS256';
export const ACCESS_TOKEN_ISSUER = 'platform-auth';

/**
 * Verifies an access token with Authentication's public key; null when it is not valid, or when
 * it is good only for MFA enrollment and `allowEnrollmentOnly` is not set.
 */
export function verifyAccessToken(
  token: string,
  publicKey: string | KeyObject,
  options: { allowEnrollmentOnly?: boolean } = {},
): AccessTokenClaims | null {
  try {
    const claims = jwt.verify(token, publicKey, {
      algorithms: [ACCESS_TOKEN_ALGORITHM],
      issuer: ACCESS_TOKEN_ISSUER,
    }) as RawClaims;
    if (claims.typ !== 'access' || !claims.sub || !claims.tid || !claims.pid) return null;
    // Tokens signed before audiences were added carry none; one that names another project is refused.
    if (claims.aud !== undefined && claims.aud !== accessTokenAudience(claims.pid)) return null;
    const enrollmentOnly = claims.scp === MFA_ENROLLMENT_SCOPE;
    if (enrollmentOnly && !options.allowEnrollmentOnly) return null;
    return {
      userId: claims.sub,
      tenantId: claims.tid,
      projectId: claims.pid,
      email: claims.email ?? '',
      tokenVersion: claims.ver ?? 0,
      ...(claims.sid === undefined ? {} : { sessionId: claims.sid }),
      ...(claims.aal === undefined ? {} : { aal: claims.aal }),
      ...(enrollmentOnly ? { enrollmentOnly } : {}),
      ...(claims.is_anonymous === undefined ? {} : { isAnonymous: claims.is_anonymous === true }),
      ...(claims.exp === undefined ? {} : { expiresAt: claims.exp }),
    };
  } catch {
    return null;
  }
}

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  return header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
}

/**
 * Requires `Authorization: Bearer <access token>`. When the key middleware ran first, the
 * token must belong to the same tenant and project as the keys.
 */
export function requireBearer(publicKey: string, options: { allowEnrollmentOnly?: boolean } = {}): RequestHandler {
  // Parsed once: reading the PEM was a measurable share of every bearer check (docs/performance.md).
  const key = createPublicKey(publicKey);
  return headersOnly((req, _res, next) => {
    const token = bearerTokenOf(req.get('authorization'));
    const claims = token ? verifyAccessToken(token, key, { allowEnrollmentOnly: true }) : null;
    if (!claims) throw errors.invalidSession('Missing, invalid or expired access token');
    if (claims.enrollmentOnly && !options.allowEnrollmentOnly) {
      throw errors.forbidden('This project requires a second factor: enroll one (POST /v1/mfa/totp) and sign in again');
    }
    if (req.tenant && (req.tenant.tenantId !== claims.tenantId || req.tenant.projectId !== claims.projectId)) {
      throw errors.unauthorized('Access token does not belong to this project');
    }
    req.auth = claims;
    next();
  });
}

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** Parses a PEM private key once, for signing many tokens. */
export function signingKey(privateKeyPem: string): KeyObject {
  return createPrivateKey(privateKeyPem);
}

/**
 * Signs an access token (Authentication holds the private key; tests sign their own).
 * `keyId` goes in the header as `kid`, matching the key's entry in the JWKS.
 */
export function signAccessToken(
  claims: AccessTokenClaims,
  privateKey: string | KeyObject,
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  keyId?: string,
): string {
  return jwt.sign(
    {
      tid: claims.tenantId,
      pid: claims.projectId,
      email: claims.email,
      ver: claims.tokenVersion,
      typ: 'access',
      ...(claims.sessionId ? { sid: claims.sessionId } : {}),
      ...(claims.aal ? { aal: claims.aal } : {}),
      ...(claims.enrollmentOnly ? { scp: MFA_ENROLLMENT_SCOPE } : {}),
      ...(claims.isAnonymous === undefined ? {} : { is_anonymous: claims.isAnonymous }),
    },
    privateKey,
    {
      algorithm: ACCESS_TOKEN_ALGORITHM,
      audience: accessTokenAudience(claims.projectId),
      expiresIn: ttlSeconds,
      subject: claims.userId,
      issuer: ACCESS_TOKEN_ISSUER,
      ...(keyId ? { keyid: keyId } : {}),
    },
  );
}
