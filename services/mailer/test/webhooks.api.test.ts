import type { ApiClient } from './support/mailer-test-service';
import { useMailerService } from './support/mailer-test-service';
import {
  logOf,
  postWebhook as post,
  sendgridEventId,
  sendThroughDefault as sendThrough,
  vendorWebhookKeys,
} from './support/webhooks';

const ctx = useMailerService();
const { mailgunSigningKey: signingKey, sendgridPublicKey, mailgunEvent, sendgridHeaders } = vendorWebhookKeys();

let api: ApiClient;
let mailgunProviderId: string;
let sendgridProviderId: string;

beforeAll(async () => {
  ({ api } = await ctx.freshProject());
  mailgunProviderId = (
    await api.post('/v1/providers', {
      body: {
        name: 'mg',
        type: 'mailgun',
        config: { apiKey: 'key-1', domain: 'mg.example.com', webhookSigningKey: signingKey },
      },
    })
  ).body.id;
  sendgridProviderId = (
    await api.post('/v1/providers', {
      body: {
        name: 'sg',
        type: 'sendgrid',
        config: { apiKey: 'SG.1', webhookPublicKey: sendgridPublicKey },
      },
    })
  ).body.id;
});

const postWebhook = (providerId: string, rawBody: string, headers?: Record<string, string>) =>
  post(ctx.svc.app, providerId, rawBody, headers);
const logStatus = async (id: string) => (await logOf(api, id)).status;
const sendThroughDefault = () => sendThrough(api);

describe('Mailgun delivery webhooks', () => {
  it('when a correctly signed "delivered" event arrives, then the log becomes delivered', async () => {
    const log = await sendThroughDefault();
    const res = await postWebhook(mailgunProviderId, JSON.stringify(mailgunEvent(log.vendorMessageId, 'delivered')));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, updated: 1 });
    expect(await logStatus(log.id)).toBe('delivered');
  });

  it('when a permanent failure arrives, then the log becomes bounced and stats count it', async () => {
    const log = await sendThroughDefault();
    await postWebhook(
      mailgunProviderId,
      JSON.stringify(mailgunEvent(log.vendorMessageId, 'failed', { severity: 'permanent' })),
    );
    expect(await logStatus(log.id)).toBe('bounced');
    const stats = (await api.get('/v1/stats')).body;
    expect(stats.bounced).toBeGreaterThanOrEqual(1);
    expect(stats.total).toBe(stats.sent + stats.delivered + stats.bounced + stats.failed);
  });

  it('when the signature was made with another key or the event was tampered with, then 401 and nothing changes', async () => {
    const log = await sendThroughDefault();
    const wrongKey = await postWebhook(
      mailgunProviderId,
      JSON.stringify(mailgunEvent(log.vendorMessageId, 'delivered', {}, { key: 'not-the-key' })),
    );
    expect(wrongKey.status).toBe(401);
    const signed = mailgunEvent(log.vendorMessageId, 'delivered');
    signed.signature.token = `${signed.signature.token}0`;
    expect((await postWebhook(mailgunProviderId, JSON.stringify(signed))).status).toBe(401);
    const unsigned = {
      'event-data': { event: 'delivered', message: { headers: { 'message-id': log.vendorMessageId } } },
    };
    expect((await postWebhook(mailgunProviderId, JSON.stringify(unsigned))).status).toBe(401);
    expect(await logStatus(log.id)).toBe('sent');
  });
});

describe('SendGrid delivery webhooks', () => {
  beforeAll(async () => {
    // Later sends go through SendGrid.
    await api.post('/v1/providers', {
      body: {
        name: 'sg default',
        type: 'sendgrid',
        isDefault: true,
        config: { apiKey: 'SG.2' },
      },
    });
  });

  async function sendThroughSendgrid() {
    const sent = await api.post(`/v1/providers/${sendgridProviderId}/test`, { body: { to: 'r@example.com' } });
    const logs = await api.get('/v1/logs?limit=100');
    return logs.body.logs.find((l: { id: string }) => l.id === sent.body.messageId) as {
      id: string;
      vendorMessageId: string;
    };
  }

  it('when a correctly signed batch arrives, then sg_message_id finds each log and moves it', async () => {
    const delivered = await sendThroughSendgrid();
    const bounced = await sendThroughSendgrid();
    const rawBody = JSON.stringify([
      {
        email: 'r@example.com',
        event: 'processed',
        sg_message_id: `${delivered.vendorMessageId}.filter0001.1.0`,
        sg_event_id: sendgridEventId(),
      },
      {
        email: 'r@example.com',
        event: 'delivered',
        sg_message_id: `${delivered.vendorMessageId}.filter0001.1.0`,
        sg_event_id: sendgridEventId(),
      },
      {
        email: 'r@example.com',
        event: 'bounce',
        sg_message_id: `${bounced.vendorMessageId}.filter0002.1.0`,
        sg_event_id: sendgridEventId(),
      },
    ]);
    const res = await postWebhook(sendgridProviderId, rawBody, sendgridHeaders(rawBody));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, updated: 2 });
    expect(await logStatus(delivered.id)).toBe('delivered');
    expect(await logStatus(bounced.id)).toBe('bounced');
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'when a signed event is named %s, then it is skipped like any unknown event and the log stays sent',
    async (event) => {
      const log = await sendThroughSendgrid();
      const rawBody = JSON.stringify([
        { event, sg_message_id: `${log.vendorMessageId}.f.0`, sg_event_id: sendgridEventId() },
      ]);
      const res = await postWebhook(sendgridProviderId, rawBody, sendgridHeaders(rawBody));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, updated: 0 });
      expect(await logStatus(log.id)).toBe('sent');
    },
  );

  it('when a bounce was recorded, then a late "delivered" does not undo it', async () => {
    const log = await sendThroughSendgrid();
    for (const event of ['bounce', 'delivered']) {
      const rawBody = JSON.stringify([
        { event, sg_message_id: `${log.vendorMessageId}.f.0`, sg_event_id: sendgridEventId() },
      ]);
      await postWebhook(sendgridProviderId, rawBody, sendgridHeaders(rawBody));
    }
    expect(await logStatus(log.id)).toBe('bounced');
  });

  it('when the body was changed after signing or the signature is missing, then 401 and nothing changes', async () => {
    const log = await sendThroughSendgrid();
    const signedBody = JSON.stringify([
      { event: 'processed', sg_message_id: `${log.vendorMessageId}.f.0`, sg_event_id: sendgridEventId() },
    ]);
    const tamperedBody = JSON.stringify([
      { event: 'delivered', sg_message_id: `${log.vendorMessageId}.f.0`, sg_event_id: sendgridEventId() },
    ]);
    expect((await postWebhook(sendgridProviderId, tamperedBody, sendgridHeaders(signedBody))).status).toBe(401);
    expect((await postWebhook(sendgridProviderId, tamperedBody)).status).toBe(401);
    const otherTime = sendgridHeaders(tamperedBody, '1700000000');
    otherTime['X-Twilio-Email-Event-Webhook-Timestamp'] = '1700000001';
    expect((await postWebhook(sendgridProviderId, tamperedBody, otherTime)).status).toBe(401);
    expect(await logStatus(log.id)).toBe('sent');
  });

  it('when the signature is wrong and the body is not even JSON, then 401: the signature is checked before anything is parsed', async () => {
    const signedBody = JSON.stringify([{ event: 'processed', sg_event_id: sendgridEventId() }]);
    const res = await postWebhook(sendgridProviderId, '[{"event": "deliv', sendgridHeaders(signedBody));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('when the provider has no verification key, then its webhook is refused', async () => {
    const plain = await api.post('/v1/providers', {
      body: { name: 'no key', type: 'sendgrid', config: { apiKey: 'SG.3' } },
    });
    const rawBody = '[]';
    expect((await postWebhook(plain.body.id, rawBody, sendgridHeaders(rawBody))).status).toBe(401);
  });

  it('when the provider id is unknown, then 404', async () => {
    expect((await postWebhook('00000000-0000-4000-8000-000000000000', '[]')).status).toBe(404);
    expect((await postWebhook('nope', '[]')).status).toBe(404);
  });
});
