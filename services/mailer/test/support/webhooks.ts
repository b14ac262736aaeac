import { createSign, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { mailgunSignature } from '../../src/webhooks/webhook-signatures';
import { mailerClient, type ApiClient } from './mailer-test-service';

/** Unix seconds as the vendors sign them, shifted by `offsetSeconds`. */
export const nowSeconds = (offsetSeconds = 0) => String(Math.floor(Date.now() / 1000) + offsetSeconds);

/** A SendGrid sg_event_id: a base64url-encoded UUID, unique per event. */
export const sendgridEventId = () => Buffer.from(randomUUID()).toString('base64url');

/**
 * One vendor account's webhook keys (a Mailgun signing key, a SendGrid key pair) and requests
 * signed with them the way each vendor signs.
 */
export function vendorWebhookKeys() {
  const mailgunSigningKey = `mg-signing-${randomBytes(8).toString('hex')}`;
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    mailgunSigningKey,
    sendgridPublicKey: ec.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),

    /** A Mailgun JSON webhook: the signature covers only timestamp + token. */
    mailgunEvent(
      messageId: string,
      event: string,
      extra: Record<string, unknown> = {},
      { key = mailgunSigningKey, timestamp = nowSeconds(), token = randomBytes(25).toString('hex') } = {},
    ) {
      return {
        signature: { timestamp, token, signature: mailgunSignature(key, timestamp, token) },
        'event-data': { event, ...extra, message: { headers: { 'message-id': messageId } } },
      };
    },

    /** SendGrid's signed event webhook headers: ECDSA over the timestamp header + raw body. */
    sendgridHeaders(rawBody: string, timestamp = nowSeconds()) {
      const signer = createSign('sha256');
      signer.update(timestamp + rawBody);
      return {
        'X-Twilio-Email-Event-Webhook-Signature': signer.sign(ec.privateKey).toString('base64'),
        'X-Twilio-Email-Event-Webhook-Timestamp': timestamp,
      };
    },
  };
}

/** Posts a raw JSON body without keys, as the vendor would, and checks the answer against the document. */
export async function postWebhook(
  app: Express,
  providerId: string,
  rawBody: string,
  headers: Record<string, string> = {},
) {
  return mailerClient(app).post(`/webhooks/${providerId}`, {
    headers: { 'content-type': 'application/json', ...headers },
    body: rawBody,
  });
}

export interface SentLog {
  id: string;
  status: string;
  vendorMessageId: string;
}

/** The project's log row for one message id. */
export async function logOf(api: ApiClient, id: string): Promise<SentLog> {
  const logs = await api.get('/v1/logs?limit=100');
  return logs.body.logs.find((l: SentLog) => l.id === id);
}

/**
 * Sends one email through the project's default provider and returns its log. Each goes to a new
 * address: a bounce reported for one puts that address on the suppression list.
 */
export async function sendThroughDefault(api: ApiClient): Promise<SentLog> {
  const sent = await api.post('/v1/emails/send', {
    body: { to: `r-${randomUUID()}@example.com`, subject: 's', html: 'h' },
  });
  expect(sent.status).toBe(200);
  return logOf(api, sent.body.messageId);
}
