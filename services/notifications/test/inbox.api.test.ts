import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { StopFunction } from '@platform/runtime';
import { signAccessToken } from '@platform/tenancy';
import { createTestService, testJwtKeys, waitFor, type TestProject, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { api } from './support/notifications-test-service';
import { lastCount, named, openSse, type SseClient } from './support/sse-client';

let svc: TestService;
let server: Server;
let base: string;
let stopBackground: StopFunction;
const clients: SseClient[] = [];
const APP_ORIGIN = 'https://app.example.com';

beforeAll(async () => {
  svc = await createTestService(notificationsService, { env: { NOTIFICATIONS_STREAMS_PER_USER: '1' } });
  stopBackground = await svc.startJobs();
  server = createServer(svc.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

afterAll(async () => {
  await stopBackground();
  await new Promise((resolve) => server.close(resolve));
  await svc.close();
});

const tokenOf = (project: TestProject, userId: string) => project.accessToken({ userId, email: `${userId}@x.test` });

/** The end user's client: every call sends their access token (and an Origin when given). */
function me(token: string, origin?: string) {
  const client = api(svc.app, origin ? { origin } : {});
  const bearer = token || undefined;
  return {
    list: (query: Record<string, string | number | boolean> = {}) =>
      client.get('/me/notifications', {
        bearer,
        query: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
      }),
    unread: () => client.get('/me/notifications/unread-count', { bearer }),
    read: (id: string) => client.patch(`/me/notifications/${id}/read`, { bearer }),
    readAll: () => client.patch('/me/notifications/mark-all-read', { bearer }),
  };
}

async function create(project: TestProject, body: object): Promise<{ id: string }> {
  const res = await api(svc.app, project.headers).post('/notifications', { body });
  expect(res.status).toBe(201);
  return res.body;
}

/** An open stream (the shared client would wait for its end). */
async function meStream(query: string, headers: Record<string, string> = {}) {
  const client = await openSse(`${base}/me/notifications/stream${query}`, headers);
  clients.push(client);
  return client;
}

/** A stream request refused before any event: an ordinary response, through the shared client. */
const meStreamRefused = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  api(svc.app).get('/me/notifications/stream', { query, headers });

describe('the end-user inbox', () => {
  let project: TestProject;
  let own: { id: string };
  let broadcast: { id: string };
  let bobs: { id: string };

  beforeAll(async () => {
    project = await svc.createProject({ allowedOrigins: [APP_ORIGIN] });
    own = await create(project, { userId: 'alice', title: 'Yours', message: 'x', type: 'success' });
    broadcast = await create(project, { title: 'Everyone', message: 'x' });
    bobs = await create(project, { userId: 'bob', title: 'Bob only', message: 'x' });
  });

  it("when the user lists with their token, then they see their own notifications and the broadcasts, never another user's", async () => {
    const res = await me(tokenOf(project, 'alice')).list();
    expect(res.status).toBe(200);
    expect(res.body.notifications.map((n: { id: string }) => n.id)).toEqual([broadcast.id, own.id]);
    expect(res.body).toMatchObject({ total: 2, limit: 20, offset: 0 });
    const filtered = await me(tokenOf(project, 'alice')).list({ type: 'success', limit: 1 });
    expect(filtered.body).toMatchObject({ total: 1, limit: 1, notifications: [{ id: own.id }] });
  });

  it("when the filters are not valid, then 400; a userId in the query is ignored, never another user's view", async () => {
    expect((await me(tokenOf(project, 'alice')).list({ limit: 0 })).status).toBe(400);
    const asBob = await me(tokenOf(project, 'alice')).list({ userId: 'bob' });
    expect(asBob.body.notifications.map((n: { id: string }) => n.id)).toEqual([broadcast.id, own.id]);
  });

  it("when the user marks another user's notification read, then 404 and it stays unread", async () => {
    expect((await me(tokenOf(project, 'alice')).read(bobs.id)).status).toBe(404);
    expect((await me(tokenOf(project, 'bob')).unread()).body).toEqual({ count: 2 });
  });

  it('when the user reads a broadcast and then all, then their count drops to zero and nobody else changes', async () => {
    const carol = me(tokenOf(project, 'carol'));
    expect((await carol.unread()).body).toEqual({ count: 1 });
    const read = await carol.read(broadcast.id);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: broadcast.id, read: true });
    expect((await carol.unread()).body).toEqual({ count: 0 });
    const dave = me(tokenOf(project, 'dave'));
    expect((await dave.readAll()).body).toMatchObject({ success: true, updated: 1, count: 1 });
    expect((await dave.unread()).body).toEqual({ count: 0 });
    expect((await me(tokenOf(project, 'alice')).unread()).body).toEqual({ count: 2 });
  });

  it("when the keys ask for a user's unread count, then it is the same count; without userId, 400", async () => {
    const keyed = api(svc.app, project.headers);
    const res = await keyed.get('/notifications/unread-count', { query: { userId: 'alice' } });
    expect(res.body).toEqual({ count: 2 });
    const missing = await keyed.get('/notifications/unread-count');
    expect(missing.status).toBe(400);
    const noKeys = await api(svc.app).get('/notifications/unread-count', { query: { userId: 'alice' } });
    expect(noKeys.status).toBe(401);
  });

  it('when a token of another project is used, then nothing of this project is seen or changed', async () => {
    const other = await svc.createProject();
    const stranger = me(tokenOf(other, 'alice'));
    expect((await stranger.list()).body).toMatchObject({ notifications: [], total: 0 });
    expect((await stranger.unread()).body).toEqual({ count: 0 });
    expect((await stranger.read(own.id)).status).toBe(404);
    expect((await stranger.readAll()).body).toMatchObject({ updated: 0 });
    expect((await me(tokenOf(project, 'alice')).unread()).body).toEqual({ count: 2 });
  });

  it('when the token is missing, forged or expired, or only the keys are sent, then 401', async () => {
    for (const client of [me(''), me('not-a-token'), me(expiredToken(project, 'alice'))]) {
      expect((await client.list()).status).toBe(401);
      expect((await client.unread()).status).toBe(401);
      expect((await client.read(own.id)).status).toBe(401);
      expect((await client.readAll()).status).toBe(401);
    }
    const keysOnly = await api(svc.app, project.headers).get('/me/notifications');
    expect(keysOnly.status).toBe(401);
  });
});

function expiredToken(project: TestProject, userId: string, ttlSeconds = -10): string {
  return signAccessToken(
    { userId, email: `${userId}@x.test`, tokenVersion: 0, tenantId: project.tenantId, projectId: project.projectId },
    testJwtKeys().privateKey,
    ttlSeconds,
  );
}

describe('CORS on the end-user routes', () => {
  let project: TestProject;
  beforeAll(async () => {
    project = await svc.createProject({ allowedOrigins: [APP_ORIGIN] });
    await create(project, { userId: 'alice', title: 'x', message: 'x' });
  });

  it('when the Origin is in allowedOrigins, then the response carries Access-Control-Allow-Origin for it', async () => {
    const res = await me(tokenOf(project, 'alice'), APP_ORIGIN).list();
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(res.headers.vary).toMatch(/origin/i);
  });

  it('when the Origin is not allowed, then 403 without CORS headers, and nothing changes', async () => {
    const evil = me(tokenOf(project, 'alice'), 'https://evil.example');
    for (const res of [
      await evil.list(),
      await evil.unread(),
      await evil.readAll(),
      await evil.read(project.projectId),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await me(tokenOf(project, 'alice')).unread()).body).toEqual({ count: 1 });
  });

  it('when the project has no allowedOrigins, then every browser origin is refused; a server without Origin passes', async () => {
    const bare = await svc.createProject();
    expect((await me(tokenOf(bare, 'alice'), APP_ORIGIN).list()).status).toBe(403);
    expect((await me(tokenOf(bare, 'alice')).list()).status).toBe(200);
  });

  it('when a browser sends a preflight, then 204 names the methods and headers the routes accept', async () => {
    const res = await api(svc.app).call('options', '/me/notifications', {
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'PATCH' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-methods']).toBe('GET, PATCH');
    expect(res.headers['access-control-allow-headers']).toMatch(/authorization/);
    const nested = await request(svc.app).options('/v1/me/notifications/abc/read').set('origin', APP_ORIGIN);
    expect(nested.status).toBe(204);
  });

  it('when the token is bad, then the 401 is readable by the calling page', async () => {
    const res = await me('not-a-token', APP_ORIGIN).list();
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
  });
});

describe('GET /v1/me/notifications/stream', () => {
  let project: TestProject;
  beforeAll(async () => {
    project = await svc.createProject({ allowedOrigins: [APP_ORIGIN] });
  });

  it("when the token comes as ?access_token= or as a bearer header, then the stream is that user's", async () => {
    const byQuery = await meStream(`?access_token=${tokenOf(project, 'alice')}`);
    const byHeader = await meStream('', { authorization: `Bearer ${tokenOf(project, 'bob')}` });
    expect([byQuery.status, byHeader.status]).toEqual([200, 200]);
    expect(byQuery.headers['content-type']).toMatch(/^text\/event-stream/);
    await byQuery.next((e) => e.event === 'unread_count');
    await byHeader.next((e) => e.event === 'unread_count');
    const forAlice = await create(project, { userId: 'alice', title: 'a', message: 'x' });
    const forBob = await create(project, { userId: 'bob', title: 'b', message: 'x' });
    await byQuery.next((e) => e.event === 'notification');
    await byHeader.next((e) => e.event === 'notification');
    expect((named(byQuery, 'notification') as { id: string }[]).map((n) => n.id)).toEqual([forAlice.id]);
    expect((named(byHeader, 'notification') as { id: string }[]).map((n) => n.id)).toEqual([forBob.id]);
    // A read through the inbox route reaches the stream with the new count.
    await me(tokenOf(project, 'alice')).read(forAlice.id);
    await byQuery.next((e) => e.event === 'read');
    await waitFor(() => lastCount(byQuery) === 0);
  });

  it('when the token expires, then the stream ends', async () => {
    const client = await meStream(`?access_token=${expiredToken(project, 'erin', 2)}`);
    expect(client.status).toBe(200);
    await waitFor(() => client.ended, { timeoutMs: 8_000 });
  });

  it("when a token of another project streams, then none of this project's changes reach it", async () => {
    const other = await svc.createProject();
    const client = await meStream(`?access_token=${tokenOf(other, 'frank')}`);
    await client.next((e) => e.event === 'unread_count');
    await create(project, { userId: 'frank', title: 'not yours', message: 'x' });
    await create(project, { title: 'not your broadcast', message: 'x' });
    const mine = await create(other, { userId: 'frank', title: 'yours', message: 'x' });
    await client.next((e) => e.event === 'notification');
    expect((named(client, 'notification') as { id: string }[]).map((n) => n.id)).toEqual([mine.id]);
  });

  it('when the token is missing or expired, the origin not allowed, Last-Event-ID not an id or the user over the limit, then an error before any event', async () => {
    const gina = { access_token: tokenOf(project, 'gina') };
    expect((await meStreamRefused({})).status).toBe(401);
    expect((await meStreamRefused({ access_token: expiredToken(project, 'gina') })).status).toBe(401);
    const evil = await meStreamRefused(gina, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const badId = await meStreamRefused(gina, { 'last-event-id': 'yesterday' });
    expect(badId.status).toBe(400);
    const first = await meStream(`?access_token=${gina.access_token}`, { origin: APP_ORIGIN });
    expect(first.status).toBe(200);
    expect(first.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect((await meStreamRefused(gina)).status).toBe(429);
  });
});
