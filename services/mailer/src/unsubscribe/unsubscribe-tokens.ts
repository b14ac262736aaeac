import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '@platform/tenancy';

/** Who an unsubscribe link is for: one address of one project. */
export interface UnsubscribeClaim {
  tenantId: string;
  projectId: string;
  email: string;
}

const MAX_TOKEN_LENGTH = 2048;

function mac(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** `<base64url JSON claim>.<base64url HMAC-SHA256 of it under the project's secret>` */
export function signUnsubscribeToken(secret: Buffer, claim: UnsubscribeClaim): string {
  const payload = Buffer.from(JSON.stringify([claim.tenantId, claim.projectId, claim.email])).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The claim a token states, unverified (its project names the secret to check it with); null when malformed. */
export function readUnsubscribeToken(token: string): { claim: UnsubscribeClaim; payload: string; mac: string } | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((v) => typeof v === 'string')) return null;
    const [tenantId, projectId, email] = parsed as string[];
    return { claim: { tenantId, projectId, email }, payload, mac: signature };
  } catch {
    return null;
  }
}

export function verifyUnsubscribeMac(secret: Buffer, payload: string, signature: string): boolean {
  return constantTimeEqual(mac(secret, payload), signature);
}
