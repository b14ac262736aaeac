import type { KeyObject } from 'node:crypto';
import type { PasswordHasher } from './passwords/password-hasher';
import type { Clock } from './shared/clock';

/** The access-token signing key parsed once, and its `kid` (the JWKS thumbprint). */
export interface AccessTokenSigner {
  signingKey: KeyObject;
  keyId: string;
}

/** What issues credentials, built once in `build`: hasher, token signer, base of emailed links. */
export interface Issuer {
  passwords: PasswordHasher;
  signer: AccessTokenSigner;
  /** APP_URL: the base of links in emails when the project sets no `appUrl`. */
  appUrl: string;
  /** What e-mail codes and provider flows read the time from (tests replace it). */
  clock: Clock;
}
