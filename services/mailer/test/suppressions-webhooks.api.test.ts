import type { ApiClient } from './support/mailer-test-service';
import { useMailerService } from './support/mailer-test-service';
import { postWebhook, sendgridEventId, sendThroughDefault, vendorWebhookKeys } from './support/webhooks';

const ctx = useMailerService();
const keys = vendorWebhookKeys();

/** A project whose only provider is the given vendor, with its webhook key configured. */
async function projectWith(type: 'mailgun' | 'sendgrid'): Promise<{ api: ApiClient; providerId: string }> {
  const { api } = await ctx.freshProject();
  const config =
    type === 'mailgun'
      ? { apiKey: 'key-1', domain: 'mg.example.com', webhookSigningKey: keys.mailgunSigningKey }
      : { apiKey: 'SG.1', webhookPublicKey: keys.sendgridPublicKey };
  const providerId = (await api.post('/v1/providers', { body: { name: type, type, config } })).body.id;
  return { api, providerId };
}

const suppressionsOf = async (api: ApiClient) => (await api.get('/v1/suppressions')).body.suppressions;

/** Mailgun's event-data for one sent message: the event names the recipient. */
async function mailgunEventFor(api: ApiClient, event: string, extra: Record<string, unknown> = {}) {
  const log = await sendThroughDefault(api);
  const to = (await api.get('/v1/logs')).body.logs.find((l: { id: string }) => l.id === log.id).to;
  return { log, to, body: JSON.stringify(keys.mailgunEvent(log.vendorMessageId, event, { recipient: to, ...extra })) };
}

describe('suppression from Mailgun events', () => {
  it.each([
    ['failed', 'bounce', 'all', { severity: 'permanent' }],
    ['complained', 'complaint', 'all', {}],
    ['unsubscribed', 'unsubscribe', 'marketing', {}],
  ])(
    'when a signed "%s" event arrives, then the recipient is suppressed as %s (%s mail)',
    async (event, reason, scope, extra) => {
      const { api, providerId } = await projectWith('mailgun');
      const { to, body } = await mailgunEventFor(api, event, extra);
      expect((await postWebhook(ctx.svc.app, providerId, body)).status).toBe(200);
      expect(await suppressionsOf(api)).toEqual([
        { email: to, scope, reason, providerEvent: `mailgun:${event}`, providerId, createdAt: expect.any(String) },
      ]);
    },
  );

  it('when a temporary failure arrives, then the recipient is not suppressed', async () => {
    const { api, providerId } = await projectWith('mailgun');
    const { body } = await mailgunEventFor(api, 'failed', { severity: 'temporary' });
    expect((await postWebhook(ctx.svc.app, providerId, body)).status).toBe(200);
    expect(await suppressionsOf(api)).toEqual([]);
  });

  it('when a complaint is signed with another key, then 401 and nothing is suppressed', async () => {
    const { api, providerId } = await projectWith('mailgun');
    const log = await sendThroughDefault(api);
    const forged = keys.mailgunEvent(
      log.vendorMessageId,
      'complained',
      { recipient: 'x@example.com' },
      { key: 'wrong' },
    );
    expect((await postWebhook(ctx.svc.app, providerId, JSON.stringify(forged))).status).toBe(401);
    expect(await suppressionsOf(api)).toEqual([]);
  });

  it("when a bounce arrives for one project's provider, then only that project suppresses the address", async () => {
    const { api, providerId } = await projectWith('mailgun');
    const { api: other } = await projectWith('mailgun');
    const { body } = await mailgunEventFor(api, 'failed', { severity: 'permanent' });
    await postWebhook(ctx.svc.app, providerId, body);
    expect(await suppressionsOf(api)).toHaveLength(1);
    expect(await suppressionsOf(other)).toEqual([]);
  });
});

describe('suppression from SendGrid events', () => {
  it.each([
    ['bounce', 'bounce', 'all', { type: 'bounce' }],
    ['spamreport', 'complaint', 'all', {}],
    ['unsubscribe', 'unsubscribe', 'marketing', {}],
    ['group_unsubscribe', 'unsubscribe', 'marketing', { asm_group_id: 7 }],
  ])(
    'when a signed "%s" event arrives, then the recipient is suppressed as %s (%s mail)',
    async (event, reason, scope, extra) => {
      const { api, providerId } = await projectWith('sendgrid');
      const log = await sendThroughDefault(api);
      const to = 'Reader@Example.com';
      const raw = JSON.stringify([
        {
          email: to,
          event,
          sg_event_id: sendgridEventId(),
          sg_message_id: `${log.vendorMessageId}.filter0001`,
          ...extra,
        },
      ]);
      expect((await postWebhook(ctx.svc.app, providerId, raw, keys.sendgridHeaders(raw))).status).toBe(200);
      expect(await suppressionsOf(api)).toEqual([
        {
          email: 'reader@example.com',
          scope,
          reason,
          providerEvent: `sendgrid:${event}`,
          providerId,
          createdAt: expect.any(String),
        },
      ]);
    },
  );

  it('when a "blocked" bounce (temporary) arrives, then the recipient is not suppressed', async () => {
    const { api, providerId } = await projectWith('sendgrid');
    const raw = JSON.stringify([
      { email: 'b@example.com', event: 'bounce', type: 'blocked', sg_event_id: sendgridEventId() },
    ]);
    expect((await postWebhook(ctx.svc.app, providerId, raw, keys.sendgridHeaders(raw))).status).toBe(200);
    expect(await suppressionsOf(api)).toEqual([]);
  });

  it('when the batch is not signed by the account key, then 401 and nothing is suppressed', async () => {
    const { api, providerId } = await projectWith('sendgrid');
    const raw = JSON.stringify([{ email: 'b@example.com', event: 'spamreport', sg_event_id: sendgridEventId() }]);
    const headers = vendorWebhookKeys().sendgridHeaders(raw);
    expect((await postWebhook(ctx.svc.app, providerId, raw, headers)).status).toBe(401);
    expect(await suppressionsOf(api)).toEqual([]);
  });

  it('when a later send goes to an address a complaint suppressed, then it is not handed to SendGrid', async () => {
    const { api, providerId } = await projectWith('sendgrid');
    const raw = JSON.stringify([{ email: 'angry@example.com', event: 'spamreport', sg_event_id: sendgridEventId() }]);
    await postWebhook(ctx.svc.app, providerId, raw, keys.sendgridHeaders(raw));
    const before = ctx.sendgrid.requests.length;
    const res = await api.post('/v1/emails/send', { body: { to: 'angry@example.com', subject: 's', html: 'h' } });
    expect(res.body).toMatchObject({ status: 'suppressed', reason: 'complaint' });
    expect(ctx.sendgrid.requests.length).toBe(before);
  });
});
