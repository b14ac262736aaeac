import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '@platform/tenancy';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (RESOLUTIONS 6), Stripe's scheme. */
export function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

/** What a receiver does: recompute and compare in constant time, refusing old timestamps. */
export function verifyWebhookSignature(secret: string, body: string, header: string, toleranceSeconds = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return false;
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  return constantTimeEqual(signWebhook(secret, body, timestamp), `t=${timestamp},v1=${parts.v1}`);
}
