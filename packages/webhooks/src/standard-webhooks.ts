/**
 * Standard Webhooks (standardwebhooks.com) beside our Stripe-style header: `webhook-id`,
 * `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed
 * with the bytes of a `whsec_<standard base64>` secret, the form its libraries read.
 */
import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

/**
 * The key bytes of a project's webhook secret. Secrets are `whsec_` + base64 of random bytes: standard
 * base64 since Standard Webhooks, base64url before (those stored earlier keep their exact text, which
 * the Stripe-style signature uses as its key): both decode to their bytes. A secret that is neither
 * is keyed by its UTF-8 text.
 */
export function standardWebhookKey(secret: string): Buffer {
  const body = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : '';
  const standard = body.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (/^[A-Za-z0-9+/]+$/.test(standard) && standard.length % 4 !== 1) {
    const bytes = Buffer.from(standard, 'base64');
    if (bytes.toString('base64').replace(/=+$/, '') === standard) return bytes;
  }
  return Buffer.from(secret, 'utf8');
}

/**
 * The secret as Standard Webhooks libraries take it (`new Webhook(secret)`): the project's own secret
 * when it is already in that form, else the same key bytes written `whsec_` + standard base64.
 */
export function standardWebhookSecret(secret: string): string {
  return `${PREFIX}${standardWebhookKey(secret).toString('base64')}`;
}

/** The three Standard Webhooks headers of one attempt. */
export function standardWebhookHeaders(
  secret: string,
  webhookId: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const digest = createHmac('sha256', standardWebhookKey(secret))
    .update(`${webhookId}.${timestamp}.${body}`)
    .digest('base64');
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${digest}` };
}
