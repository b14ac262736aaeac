import { createHmac, createVerify } from 'node:crypto';
import { constantTimeEqual } from '@platform/tenancy';
import { ecPublicKeyOf } from '../providers/providers.schemas';

/** Mailgun: hex HMAC-SHA256 of timestamp + token under the account's webhook signing key. */
export function mailgunSignature(signingKey: string, timestamp: string, token: string): string {
  return createHmac('sha256', signingKey).update(`${timestamp}${token}`).digest('hex');
}

export function verifyMailgunSignature(
  signingKey: string,
  sig: { timestamp: string; token: string; signature: string },
): boolean {
  return constantTimeEqual(mailgunSignature(signingKey, sig.timestamp, sig.token), sig.signature.toLowerCase());
}

/**
 * SendGrid signed event webhook: an ECDSA (P-256, SHA-256, DER) signature, base64, over the
 * timestamp header followed by the raw request body.
 */
export function verifySendgridSignature(
  publicKey: string,
  rawBody: Buffer,
  signature: string,
  timestamp: string,
): boolean {
  try {
    const verifier = createVerify('sha256');
    verifier.update(timestamp);
    verifier.update(rawBody);
    return verifier.verify(ecPublicKeyOf(publicKey), Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
