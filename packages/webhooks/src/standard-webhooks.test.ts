import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { attemptSignedDelivery } from './delivery-attempt';
import { standardWebhookSecret } from './standard-webhooks';
import { verifyWebhookSignature } from './webhook-signature';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A customer's endpoint on a port of its own: it keeps what arrived and answers 200. */
async function receiver(): Promise<{ url: string; requests: Received[]; close: () => Promise<void> }> {
  const requests: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      requests.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const options = { timeoutMs: 2_000, deadlineMs: 2_000, maxResponseBytes: 1_024, allowedHosts: ['127.0.0.1'] };

async function deliver(secret: string, body: string): Promise<Received> {
  const stub = await receiver();
  try {
    const result = await attemptSignedDelivery(
      { url: stub.url, body, webhookId: 'msg_2b1f', attempt: 1, secret, userAgent: 'platform-webhooks/test' },
      options,
    );
    expect(result.outcome).toBe('delivered');
    return stub.requests[0];
  } finally {
    await stub.close();
  }
}

// How secrets were made before Standard Webhooks: stored ones keep their exact text.
const legacySecret = () => {
  for (;;) {
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    if (/[-_]/.test(secret.slice(6))) return secret;
  }
};

describe('Standard Webhooks', () => {
  const body = JSON.stringify({ event: 'batch.completed', batchId: 'b1', status: 'completed' });

  it('when a project secret is in the whsec form, then the standardwebhooks library verifies a real delivery with it as given, and the Stripe-style header still verifies', async () => {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const received = await deliver(secret, body);

    expect(new Webhook(secret).verify(received.body, received.headers)).toEqual(JSON.parse(body));
    expect(received.headers['webhook-id']).toBe('msg_2b1f');
    expect(received.headers['x-webhook-id']).toBe('msg_2b1f');
    expect(received.headers['webhook-timestamp']).toBe(/t=(\d+)/.exec(received.headers['x-webhook-signature'])?.[1]);
    expect(verifyWebhookSignature(secret, received.body, received.headers['x-webhook-signature'])).toBe(true);

    expect(() => new Webhook(secret).verify(`${received.body} `, received.headers)).toThrow();
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => new Webhook(other).verify(received.body, received.headers)).toThrow();
    expect(standardWebhookSecret(secret)).toBe(secret);
  });

  it('when a secret was stored before (base64url), then the Stripe-style header verifies with it unchanged and Standard Webhooks with its whsec form', async () => {
    const stored = legacySecret();
    expect(() => new Webhook(stored)).toThrow();
    const received = await deliver(stored, body);

    expect(verifyWebhookSignature(stored, received.body, received.headers['x-webhook-signature'])).toBe(true);
    // The form the README gives receivers: the same random bytes, written in standard base64.
    const whsec = `whsec_${Buffer.from(stored.slice('whsec_'.length), 'base64url').toString('base64')}`;
    expect(standardWebhookSecret(stored)).toBe(whsec);
    expect(new Webhook(whsec).verify(received.body, received.headers)).toEqual(JSON.parse(body));
  });

  it('when a secret is not base64 at all, then its whsec form is the base64 of its text, and both schemes still verify', async () => {
    const received = await deliver('not base64!', body);
    expect(standardWebhookSecret('not base64!')).toBe(`whsec_${Buffer.from('not base64!').toString('base64')}`);
    expect(new Webhook(standardWebhookSecret('not base64!')).verify(received.body, received.headers)).toBeTruthy();
    expect(verifyWebhookSignature('not base64!', received.body, received.headers['x-webhook-signature'])).toBe(true);
  });
});
