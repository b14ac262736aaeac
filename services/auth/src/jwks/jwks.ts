import { createHash, createPublicKey } from 'node:crypto';
import { ACCESS_TOKEN_ALGORITHM } from '@platform/tenancy';

export interface Jwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  alg: string;
  use: 'sig';
}

/**
 * The signing key as a JSON Web Key Set, for verifiers that fetch keys rather than configure
 * a PEM. `kid` is the RFC 7638 thumbprint, so it changes exactly when the key does.
 */
export function jwksOf(publicKeyPem: string): { keys: Jwk[] } {
  const jwk = createPublicKey(publicKeyPem).export({ format: 'jwk' }) as { kty: string; n: string; e: string };
  const thumbprint = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url');
  return { keys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, kid: thumbprint, alg: ACCESS_TOKEN_ALGORITHM, use: 'sig' }] };
}
