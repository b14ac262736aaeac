import type { ServerResponse } from 'node:http';
import type { StopFunction } from '@platform/runtime';
import {
  startHttpStub,
  waitFor,
  webhookReceiver,
  type HttpStub,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { Webhook } from 'standardwebhooks';
import { verifyWebhookSignature } from '@platform/webhooks';
import type { CmsShared } from '../src/cms-shared';
import { clientFor, startCms, type Client } from './support/cms-test-service';

let svc: TestService<CmsShared>;
let project: TestProject;
let api: Client;
let freshClient: () => Promise<Client>;
let stop: StopFunction;
const stubs: HttpStub[] = [];

beforeAll(async () => {
  ({ svc, project, api, freshClient } = await startCms({
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    CMS_WEBHOOK_RETRY_DELAYS_MS: '50,50',
    WEBHOOK_DEADLINE_MS: '1500',
    WEBHOOK_SLOTS: '4',
    WEBHOOK_PROJECT_SLOTS: '2',
    WEBHOOK_SLOT_RETRY_MS: '50',
  }));
  svc.deps.relay.start();
  stop = await svc.startJobs();
});

afterAll(async () => {
  await Promise.all(stubs.map((stub) => stub.close()));
  await stop();
  await svc.close();
});

async function receiver(secret: string, failures = 0): Promise<HttpStub> {
  const stub = await webhookReceiver(secret, failures);
  stubs.push(stub);
  return stub;
}

interface Delivery {
  id: string;
  event: string;
  status: string;
  attemptCount: number;
  payload: { id: string; event: string; data: { id: string } };
  attempts: { attempt: number; outcome: string; statusCode: number | null; error: string | null }[];
}

const deliveriesOf = async (client: Client, webhookId: string): Promise<Delivery[]> =>
  (await client.get(`/v1/webhooks/${webhookId}/deliveries?limit=100`)).body.deliveries;

/** Waits until every delivery of the webhook is settled (not pending) and there are `count` of them. */
const settled = (client: Client, webhookId: string, count: number) =>
  waitFor(async () => {
    const deliveries = await deliveriesOf(client, webhookId);
    return deliveries.length === count && deliveries.every((d) => d.status !== 'pending') && deliveries;
  });

describe('content webhooks', () => {
  it('when content changes, then each subscribed event is POSTed, signed so that the receiver verifies it', async () => {
    const stub = await receiver(project.webhookSecret);
    const hook = await api.post('/v1/webhooks', {
      body: {
        url: `${stub.url}/hooks`,
        events: ['content.created', 'content.published', 'content.updated', 'content.unpublished', 'content.deleted'],
      },
    });
    expect(hook.status).toBe(201);
    expect((await api.get('/v1/webhooks')).body.webhooks.map((w: { id: string }) => w.id)).toContain(hook.body.id);

    const item = await api.post('/v1/content', { body: { type: 'blog', title: 'Hooked', content: 'a' } });
    await api.put(`/v1/content/${item.body.id}`, { body: { content: 'b' } });
    await api.put(`/v1/content/${item.body.id}`, { body: { status: 'published' } });
    await api.put(`/v1/content/${item.body.id}`, { body: { status: 'draft' } });
    await api.delete(`/v1/content/${item.body.id}`);

    const deliveries = await settled(api, hook.body.id, 5);
    expect(deliveries.map((d) => d.event).reverse()).toEqual([
      'content.created',
      'content.updated',
      'content.published',
      'content.unpublished',
      'content.deleted',
    ]);
    expect(deliveries.every((d) => d.status === 'delivered' && d.attempts[0].statusCode === 200)).toBe(true);
    for (const request of stub.requests) {
      expect(
        verifyWebhookSignature(project.webhookSecret, request.rawBody, String(request.headers['x-webhook-signature'])),
      ).toBe(true);
      const body = request.body as Delivery['payload'];
      expect(
        new Webhook(project.webhookSecret).verify(request.rawBody, request.headers as Record<string, string>),
      ).toEqual(body);
      expect(request.headers['webhook-id']).toBe(body.id);
      expect(request.headers['x-webhook-id']).toBe(body.id);
      expect(body.data.id).toBe(item.body.id);
    }
  });

  it('when a webhook subscribes to some events only, then only those are delivered', async () => {
    const client = await freshClient();
    const hook = await client.post('/v1/webhooks', {
      body: {
        url: `${(await receiver('unused')).url}/x`,
        events: ['content.deleted'],
      },
    });
    const item = await client.post('/v1/content', { body: { type: 'faq', title: 'Q', content: 'A' } });
    await client.delete(`/v1/content/${item.body.id}`);
    expect((await settled(client, hook.body.id, 1)).map((d) => d.event)).toEqual(['content.deleted']);
  });

  it('when the receiver fails twice, then the third attempt delivers the same body with the same X-Webhook-Id', async () => {
    const stub = await receiver(project.webhookSecret, 2);
    const hook = await api.post('/v1/webhooks', { body: { url: stub.url, events: ['content.created'] } });
    await api.post('/v1/content', { body: { type: 'blog', title: 'Retried', content: '' } });
    const [delivery] = await settled(api, hook.body.id, 1);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 3 });
    expect(delivery.attempts.map((a) => [a.attempt, a.outcome, a.statusCode])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'delivered', 200],
    ]);
    expect(new Set(stub.requests.map((r) => r.rawBody)).size).toBe(1);
    expect(new Set(stub.requests.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
  });

  it('when every retry fails, then the delivery is failed; a redelivery makes a new series of attempts', async () => {
    let healthy = false;
    const stub = await startHttpStub((_req, res: ServerResponse) => {
      res.statusCode = healthy ? 204 : 503;
      res.end();
    });
    stubs.push(stub);
    const hook = await api.post('/v1/webhooks', { body: { url: stub.url, events: ['content.created'] } });
    await api.post('/v1/content', { body: { type: 'blog', title: 'Given up', content: '' } });
    const [failed] = await settled(api, hook.body.id, 1);
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 3 });

    healthy = true;
    const again = await api.post(`/v1/webhooks/${hook.body.id}/deliveries/${failed.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: failed.id, status: 'pending' });
    const [redelivered] = await settled(api, hook.body.id, 1);
    expect(redelivered).toMatchObject({ status: 'delivered', attemptCount: 4 });
    expect(redelivered.attempts[3]).toMatchObject({ attempt: 4, outcome: 'delivered', statusCode: 204 });
  });

  it('when a webhook URL resolves to a private address, then the attempt is refused and not retried', async () => {
    // "localhost" is not on the allow-list (only the literal 127.0.0.1 is): the guard checks its DNS answer.
    const hook = await api.post('/v1/webhooks', {
      body: { url: 'https://localhost:9/hook', events: ['content.created'] },
    });
    expect(hook.status).toBe(201);
    await api.post('/v1/content', { body: { type: 'blog', title: 'Not to localhost', content: '' } });
    const [delivery] = await settled(api, hook.body.id, 1);
    expect(delivery).toMatchObject({ status: 'refused', attemptCount: 1 });
    // Neither the host's address nor that it is loopback: a tenant must not learn what internal names resolve to.
    expect(delivery.attempts[0].error).toBe(
      'target not allowed: private, loopback and link-local addresses are refused',
    );
  });

  it('when the URL is a literal private address, plain HTTP to a host not allowed, or not a URL, then 400', async () => {
    for (const url of [
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'http://example.com/hook',
      'not a url',
      'ftp://x.y/',
      // Passes an RFC 3986 check, but the WHATWG parser that delivers it cannot read it.
      'https://xn--/',
      'https://xn--a.com/',
    ]) {
      const res = await api.post('/v1/webhooks', { body: { url, events: ['content.created'] } });
      expect([url, res.status]).toEqual([url, 400]);
    }
    expect((await api.post('/v1/webhooks', { body: { url: 'https://example.com/', events: [] } })).status).toBe(400);
    expect(
      (await api.post('/v1/webhooks', { body: { url: 'https://example.com/', events: ['content.read'] } })).status,
    ).toBe(400);
  });

  it('when a project has as many webhooks as allowed, then the next one is 400', async () => {
    const client = await freshClient();
    for (let i = 0; i < 10; i++) {
      expect(
        (await client.post('/v1/webhooks', { body: { url: `https://example.com/${i}`, events: ['content.created'] } }))
          .status,
      ).toBe(201);
    }
    const res = await client.post('/v1/webhooks', {
      body: { url: 'https://example.com/11', events: ['content.created'] },
    });
    expect(res.status).toBe(400);
  });

  it("when another project lists, deletes or redelivers a project's webhook, then 404, and its changes do not reach it", async () => {
    const stub = await receiver(project.webhookSecret);
    const hook = await api.post('/v1/webhooks', { body: { url: stub.url, events: ['content.created'] } });
    await api.post('/v1/content', { body: { type: 'blog', title: 'Mine', content: '' } });
    const [delivery] = await settled(api, hook.body.id, 1);

    const other = await freshClient();
    expect((await other.get('/v1/webhooks')).body.webhooks).toEqual([]);
    expect((await other.get(`/v1/webhooks/${hook.body.id}/deliveries`)).status).toBe(404);
    expect((await other.post(`/v1/webhooks/${hook.body.id}/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
    expect((await other.delete(`/v1/webhooks/${hook.body.id}`)).status).toBe(404);
    await other.post('/v1/content', { body: { type: 'blog', title: 'Theirs', content: '' } });
    expect(await deliveriesOf(api, hook.body.id)).toHaveLength(1);

    expect((await api.delete(`/v1/webhooks/${hook.body.id}`)).status).toBe(204);
    expect((await api.delete(`/v1/webhooks/${hook.body.id}`)).status).toBe(404);
    expect((await api.post(`/v1/webhooks/${hook.body.id}/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
  });

  it("when project X's receiver is a tarpit, then X holds only its share of the slots and project Y's delivery goes through meanwhile", async () => {
    let open = 0;
    let mostOpen = 0;
    const tarpit = await startHttpStub((_req, res: ServerResponse) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      res.writeHead(200);
      // One byte at a time, never finishing: only the per-attempt deadline ends it.
      const timer = setInterval(() => res.write('.'), 50);
      res.on('close', () => {
        open--;
        clearInterval(timer);
      });
    });
    stubs.push(tarpit);
    const x = await svc.createProject();
    const xClient = clientFor(svc.app, x.headers);
    const xHook = await xClient.post('/v1/webhooks', { body: { url: tarpit.url, events: ['content.created'] } });
    for (let i = 0; i < 6; i++)
      await xClient.post('/v1/content', { body: { type: 'blog', title: `Slow ${i}`, content: '' } });
    await waitFor(() => open === 2);

    const y = await svc.createProject();
    const yClient = clientFor(svc.app, y.headers);
    const yReceiver = await receiver(y.webhookSecret);
    const yHook = await yClient.post('/v1/webhooks', { body: { url: yReceiver.url, events: ['content.created'] } });
    await yClient.post('/v1/content', { body: { type: 'blog', title: 'Fast', content: '' } });
    const [yDelivery] = await settled(yClient, yHook.body.id, 1);
    expect(yDelivery.status).toBe('delivered');
    // Y got through while X's attempts were still held by its tarpit.
    const xDeliveries = await deliveriesOf(xClient, xHook.body.id);
    expect(xDeliveries.some((d) => d.status === 'delivered')).toBe(false);
    expect(mostOpen).toBe(2);

    const ended = await waitFor(async () => {
      const attempts = (await deliveriesOf(xClient, xHook.body.id)).flatMap((d) => d.attempts);
      return attempts.length > 0 && attempts;
    });
    expect(ended[0]).toMatchObject({
      outcome: 'failed',
      error: expect.stringContaining('no complete answer within 1500 ms'),
    });
  });
});
