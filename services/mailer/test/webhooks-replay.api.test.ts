import { randomBytes } from 'node:crypto';
import { assembleService } from '@platform/runtime';
import { mailerService } from '../src';
import type { ApiClient } from './support/mailer-test-service';
import { useMailerService } from './support/mailer-test-service';
import {
  logOf,
  nowSeconds,
  postWebhook,
  sendgridEventId,
  sendThroughDefault,
  vendorWebhookKeys,
  type SentLog,
} from './support/webhooks';

const ctx = useMailerService();
// One vendor account whose keys two projects configure, so a request meant for one can be aimed at the other.
const vendor = vendorWebhookKeys();
/** The default tolerance (MAILER_WEBHOOK_TOLERANCE_SECONDS) is 5 minutes. */
const TOLERANCE = 300;

interface ProjectWithProvider {
  api: ApiClient;
  providerId: string;
}

/** A fresh project whose only (so default) provider is of `type`, configured with the shared vendor keys. */
async function projectWith(type: 'mailgun' | 'sendgrid'): Promise<ProjectWithProvider> {
  const { api } = await ctx.freshProject();
  const config =
    type === 'mailgun'
      ? { apiKey: 'key-1', domain: 'mg.example.com', webhookSigningKey: vendor.mailgunSigningKey }
      : { apiKey: 'SG.1', webhookPublicKey: vendor.sendgridPublicKey };
  const created = await api.post('/v1/providers', { body: { name: type, type, config } });
  expect(created.status).toBe(201);
  return { api, providerId: created.body.id };
}

const post = (providerId: string, body: unknown, headers?: Record<string, string>) =>
  postWebhook(ctx.svc.app, providerId, typeof body === 'string' ? body : JSON.stringify(body), headers);
const statusOf = async (api: ApiClient, log: SentLog) => (await logOf(api, log.id)).status;
const stats = async (api: ApiClient) => (await api.get('/v1/stats')).body;

const REFUSED = { success: false, error: { code: 'UNAUTHORIZED', message: expect.any(String) } };

describe('Mailgun webhook replays', () => {
  let mg: ProjectWithProvider;
  beforeAll(async () => {
    mg = await projectWith('mailgun');
  });

  it('when the identical signed request arrives again, then it is refused with 401 and nothing changes', async () => {
    const log = await sendThroughDefault(mg.api);
    const body = vendor.mailgunEvent(log.vendorMessageId, 'delivered');
    const first = await post(mg.providerId, body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, updated: 1 });
    const before = await stats(mg.api);

    const replay = await post(mg.providerId, body);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject(REFUSED);
    expect(replay.body.error.message).toMatch(/already received/);
    expect(await stats(mg.api)).toEqual(before);
  });

  it('when a captured signature is reused with another event, then it is refused and that log keeps its status', async () => {
    // Mailgun signs timestamp + token only: the token is what stops a swapped event-data.
    const delivered = await sendThroughDefault(mg.api);
    const victim = await sendThroughDefault(mg.api);
    const captured = vendor.mailgunEvent(delivered.vendorMessageId, 'delivered');
    expect((await post(mg.providerId, captured)).status).toBe(200);
    const forged = vendor.mailgunEvent(victim.vendorMessageId, 'failed', { severity: 'permanent' });
    forged.signature = captured.signature;
    expect((await post(mg.providerId, forged)).status).toBe(401);
    expect(await statusOf(mg.api, victim)).toBe('sent');
  });

  it('when the replay reaches another replica or a restarted service, then it is refused there too', async () => {
    const log = await sendThroughDefault(mg.api);
    const body = JSON.stringify(vendor.mailgunEvent(log.vendorMessageId, 'delivered'));
    expect((await post(mg.providerId, body)).status).toBe(200);
    // A second app over the same database shares no memory with the first: only Postgres knows the token.
    const replica = assembleService(mailerService, { ...ctx.svc.deps });
    try {
      expect((await postWebhook(replica.app, mg.providerId, body)).status).toBe(401);
    } finally {
      await replica.close();
    }
  });

  it('when copies of one request arrive at the same time, then exactly one is accepted', async () => {
    const log = await sendThroughDefault(mg.api);
    const body = JSON.stringify(vendor.mailgunEvent(log.vendorMessageId, 'delivered'));
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(mg.providerId, body)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401, 401, 401]);
    expect(answers.reduce((sum, res) => sum + (res.body.updated ?? 0), 0)).toBe(1);
  });

  it('when the timestamp is older than the tolerance, then 401, nothing changes and its token is not used up', async () => {
    const log = await sendThroughDefault(mg.api);
    const token = randomBytes(25).toString('hex');
    const stale = vendor.mailgunEvent(
      log.vendorMessageId,
      'delivered',
      {},
      { token, timestamp: nowSeconds(-TOLERANCE - 60) },
    );
    const res = await post(mg.providerId, stale);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(REFUSED);
    expect(res.body.error.message).toMatch(/outside the accepted window/);
    expect(await statusOf(mg.api, log)).toBe('sent');
    // Nothing was stored for the refused request: the same token, freshly signed, is still good.
    const fresh = vendor.mailgunEvent(log.vendorMessageId, 'delivered', {}, { token });
    expect((await post(mg.providerId, fresh)).status).toBe(200);
    expect(await statusOf(mg.api, log)).toBe('delivered');
  });

  it('when the timestamp is further in the future than the tolerance, then 401 and nothing changes', async () => {
    const log = await sendThroughDefault(mg.api);
    const early = vendor.mailgunEvent(log.vendorMessageId, 'delivered', {}, { timestamp: nowSeconds(TOLERANCE + 60) });
    expect((await post(mg.providerId, early)).status).toBe(401);
    expect(await statusOf(mg.api, log)).toBe('sent');
  });

  it('when the timestamp is off by less than the tolerance either way, then the event is applied', async () => {
    const late = await sendThroughDefault(mg.api);
    const early = await sendThroughDefault(mg.api);
    const offset = TOLERANCE - 60;
    const lateEvent = vendor.mailgunEvent(late.vendorMessageId, 'delivered', {}, { timestamp: nowSeconds(-offset) });
    const earlyEvent = vendor.mailgunEvent(early.vendorMessageId, 'delivered', {}, { timestamp: nowSeconds(offset) });
    expect((await post(mg.providerId, lateEvent)).body).toEqual({ received: true, updated: 1 });
    expect((await post(mg.providerId, earlyEvent)).body).toEqual({ received: true, updated: 1 });
  });

  it('when a signed request is refused as malformed, then its token is not used up', async () => {
    const log = await sendThroughDefault(mg.api);
    const event = vendor.mailgunEvent(log.vendorMessageId, 'delivered');
    expect((await post(mg.providerId, { signature: event.signature, 'event-data': {} })).status).toBe(400);
    expect((await post(mg.providerId, event)).status).toBe(200);
    expect(await statusOf(mg.api, log)).toBe('delivered');
  });

  it("when another project's provider with the same signing key gets the same token, then it is applied there", async () => {
    const other = await projectWith('mailgun');
    const mine = await sendThroughDefault(mg.api);
    const theirs = await sendThroughDefault(other.api);
    const signed = { token: randomBytes(25).toString('hex'), timestamp: nowSeconds() };
    expect((await post(mg.providerId, vendor.mailgunEvent(mine.vendorMessageId, 'delivered', {}, signed))).status).toBe(
      200,
    );
    const there = await post(other.providerId, vendor.mailgunEvent(theirs.vendorMessageId, 'delivered', {}, signed));
    expect(there.body).toEqual({ received: true, updated: 1 });
    expect(await statusOf(other.api, theirs)).toBe('delivered');
  });
});

describe('SendGrid webhook replays', () => {
  let sg: ProjectWithProvider;
  beforeAll(async () => {
    sg = await projectWith('sendgrid');
  });

  const event = (kind: string, log: SentLog, eventId = sendgridEventId()) => ({
    email: 'r@example.com',
    event: kind,
    sg_message_id: `${log.vendorMessageId}.filter0001.1.0`,
    sg_event_id: eventId,
  });

  /** Signs `events` now (or at `timestamp`) and posts them to the provider. */
  const postEvents = (providerId: string, events: unknown[], timestamp?: string) => {
    const rawBody = JSON.stringify(events);
    return post(providerId, rawBody, vendor.sendgridHeaders(rawBody, timestamp));
  };

  it('when the identical signed batch arrives again, then it is accepted but changes nothing', async () => {
    const delivered = await sendThroughDefault(sg.api);
    const bounced = await sendThroughDefault(sg.api);
    const rawBody = JSON.stringify([event('delivered', delivered), event('bounce', bounced)]);
    const headers = vendor.sendgridHeaders(rawBody);
    expect((await post(sg.providerId, rawBody, headers)).body).toEqual({ received: true, updated: 2 });
    const before = await stats(sg.api);

    const replay = await post(sg.providerId, rawBody, headers);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, updated: 0 });
    expect(await stats(sg.api)).toEqual(before);
  });

  it('when an event id already processed arrives again in another batch, then it is not applied a second time', async () => {
    const first = await sendThroughDefault(sg.api);
    const second = await sendThroughDefault(sg.api);
    const eventId = sendgridEventId();
    expect((await postEvents(sg.providerId, [event('delivered', first, eventId)])).body.updated).toBe(1);
    // Same id, newly signed: a redelivery. The id, not the content, decides.
    const again = await postEvents(sg.providerId, [
      event('bounce', first, eventId),
      event('delivered', second, eventId),
    ]);
    expect(again.body).toEqual({ received: true, updated: 0 });
    expect(await statusOf(sg.api, first)).toBe('delivered');
    expect(await statusOf(sg.api, second)).toBe('sent');
  });

  it('when one batch repeats an event id, then the event is applied once', async () => {
    const first = await sendThroughDefault(sg.api);
    const second = await sendThroughDefault(sg.api);
    const eventId = sendgridEventId();
    const res = await postEvents(sg.providerId, [
      event('delivered', first, eventId),
      event('delivered', second, eventId),
    ]);
    expect(res.body).toEqual({ received: true, updated: 1 });
    expect(await statusOf(sg.api, second)).toBe('sent');
  });

  it('when an event carries no sg_event_id, then it is skipped (it could not be applied exactly once)', async () => {
    const log = await sendThroughDefault(sg.api);
    const { sg_event_id: _omitted, ...withoutId } = event('delivered', log);
    expect((await postEvents(sg.providerId, [withoutId])).body).toEqual({ received: true, updated: 0 });
    expect(await statusOf(sg.api, log)).toBe('sent');
  });

  it('when the timestamp is outside the tolerance either way, then 401, nothing changes and nothing is remembered', async () => {
    const log = await sendThroughDefault(sg.api);
    const events = [event('delivered', log)];
    for (const offset of [-TOLERANCE - 60, TOLERANCE + 60]) {
      const res = await postEvents(sg.providerId, events, nowSeconds(offset));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject(REFUSED);
    }
    expect(await statusOf(sg.api, log)).toBe('sent');
    // The refused requests recorded no event id: the same events, signed now, are applied.
    expect((await postEvents(sg.providerId, events)).body).toEqual({ received: true, updated: 1 });
  });

  it("when another project's provider receives an event id this one has processed, then it is applied there", async () => {
    const other = await projectWith('sendgrid');
    const mine = await sendThroughDefault(sg.api);
    const theirs = await sendThroughDefault(other.api);
    const eventId = sendgridEventId();
    expect((await postEvents(sg.providerId, [event('bounce', mine, eventId)])).body.updated).toBe(1);
    expect((await postEvents(other.providerId, [event('bounce', theirs, eventId)])).body.updated).toBe(1);
    expect(await statusOf(other.api, theirs)).toBe('bounced');
  });
});
