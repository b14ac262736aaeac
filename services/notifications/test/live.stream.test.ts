import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import type { StopFunction } from '@platform/runtime';
import { createTestService, waitFor, type TestProject, type TestService } from '@platform/testkit';
import { notificationsService, type NotificationsShared } from '../src';
import { api as apiOf } from './support/notifications-test-service';
import { lastCount, named, openSse, type SseClient } from './support/sse-client';

let svc: TestService<NotificationsShared>;
let server: Server;
let base: string;
let stopBackground: StopFunction;
const clients: SseClient[] = [];

beforeAll(async () => {
  svc = await createTestService(notificationsService, {
    env: {
      NOTIFICATIONS_EXPIRY_SWEEP_MS: '200',
      NOTIFICATIONS_STREAM_HEARTBEAT_MS: '200',
      NOTIFICATIONS_STREAMS_PER_USER: '2',
      NOTIFICATIONS_STREAMS_PER_PROJECT: '3',
      NOTIFICATIONS_REPLAY_MAX_EVENTS: '5',
      NOTIFICATIONS_STREAM_BUFFER_BYTES: '65536',
    },
  });
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

async function stream(project: TestProject, userId: string, headers: Record<string, string> = {}) {
  const client = await openSse(`${base}/notifications/stream?userId=${encodeURIComponent(userId)}`, {
    ...project.headers,
    ...headers,
  });
  clients.push(client);
  return client;
}

/** A stream that has said hello (its first unread_count): everything after this is live. */
async function connected(project: TestProject, userId: string, headers: Record<string, string> = {}) {
  const client = await stream(project, userId, headers);
  expect(client.status).toBe(200);
  await client.next((e) => e.event === 'unread_count');
  return client;
}

/** A project's calls through the shared client; the writes must succeed. */
const api = (project: TestProject) => {
  const client = apiOf(svc.app, project.headers);
  return {
    create: async (body: object) => {
      const res = await client.post('/notifications', { body });
      expect(res.status).toBe(201);
      return res.body as { id: string };
    },
    read: async (id: string, userId?: string) =>
      expect((await client.patch(`/notifications/${id}/read`, { query: userId ? { userId } : {} })).status).toBe(200),
    readAll: async (userId: string) =>
      expect((await client.patch('/notifications/mark-all-read', { query: { userId } })).status).toBe(200),
    remove: async (id: string) => expect((await client.delete(`/notifications/${id}`)).status).toBe(204),
  };
};

/** A stream request refused before any event: an ordinary response, through the shared client. */
const refused = (
  project: TestProject | undefined,
  query: Record<string, string>,
  headers: Record<string, string> = {},
) => apiOf(svc.app, project?.headers).get('/notifications/stream', { query, headers });

const counts = (client: SseClient) => (named(client, 'unread_count') as { count: number }[]).map((d) => d.count);
const countIs = (client: SseClient, count: number) =>
  client.next((e) => e.event === 'unread_count' && (e.data as { count: number }).count === count);

describe('GET /v1/notifications/stream', () => {
  it("when a notification is created for a user, then their stream gets it as the REST API returns it, and other users' streams do not", async () => {
    const project = await svc.createProject();
    const [alice, bob] = [await connected(project, 'alice'), await connected(project, 'bob')];
    const forBob = await api(project).create({ userId: 'bob', title: 'For Bob', message: 'hi' });
    const forAlice = await api(project).create({ userId: 'alice', title: 'For Alice', message: 'hi', data: { a: 1 } });
    const event = await alice.next((e) => e.event === 'notification');
    const rest = await apiOf(svc.app, project.headers).get(`/notifications/${forAlice.id}`);
    expect(event.data).toEqual(rest.body);
    await bob.next((e) => e.event === 'notification');
    expect(named(alice, 'notification')).toEqual([rest.body]);
    expect((named(bob, 'notification') as { id: string }[]).map((n) => n.id)).toEqual([forBob.id]);
    await countIs(alice, 1);
    expect(counts(alice)).toEqual([0, 1]);
  });

  it('when a broadcast is created, then every user of the project gets it and their count goes up by one', async () => {
    const project = await svc.createProject();
    await api(project).create({ userId: 'alice', title: 'Own', message: 'x' });
    const [alice, bob] = [await connected(project, 'alice'), await connected(project, 'bob')];
    expect([lastCount(alice), lastCount(bob)]).toEqual([1, 0]);
    const broadcast = await api(project).create({ title: 'Everyone', message: 'x' });
    for (const client of [alice, bob]) {
      const event = await client.next((e) => e.event === 'notification');
      expect(event.data).toMatchObject({ id: broadcast.id, userId: null, read: false });
    }
    await countIs(alice, 2);
    await countIs(bob, 1);
  });

  it('when notifications are read, all read and deleted, then each change arrives with the exact unread count after it', async () => {
    const project = await svc.createProject();
    const client = await connected(project, 'alice');
    const other = await connected(project, 'bob');
    const a = api(project);
    const own1 = await a.create({ userId: 'alice', title: '1', message: 'x' });
    const own2 = await a.create({ userId: 'alice', title: '2', message: 'x' });
    const own3 = await a.create({ userId: 'alice', title: '3', message: 'x' });
    const broadcast = await a.create({ title: 'b', message: 'x' });
    await countIs(client, 4);
    await a.read(own1.id);
    await countIs(client, 3);
    // Bob reading the broadcast for himself changes nothing for Alice.
    await a.read(broadcast.id, 'bob');
    await a.read(broadcast.id, 'alice');
    await countIs(client, 2);
    await a.remove(own2.id);
    await countIs(client, 1);
    await a.readAll('alice');
    await countIs(client, 0);
    await a.remove(own3.id);
    await client.next((e) => e.event === 'deleted' && (e.data as { id: string }).id === own3.id);
    expect(named(client, 'read')).toEqual([{ id: own1.id }, { id: broadcast.id }]);
    expect(named(client, 'read_all')).toEqual([{}]);
    expect(named(client, 'deleted')).toEqual([{ id: own2.id }, { id: own3.id }]);
    await countIs(other, 0);
    expect(counts(other)).toEqual([0, 1, 0]);
    // Each event carries an increasing id, the count after it included.
    const ids = client.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it('when a broadcast is marked read for everyone, then every stream counts again', async () => {
    const project = await svc.createProject();
    const broadcast = await api(project).create({ title: 'b', message: 'x' });
    const client = await connected(project, 'alice');
    expect(lastCount(client)).toBe(1);
    await api(project).read(broadcast.id);
    await countIs(client, 0);
  });

  it('when a notification expires, then streams get deleted for it and the count drops, and it is never delivered again', async () => {
    const project = await svc.createProject();
    const client = await connected(project, 'alice');
    const soon = await api(project).create({
      userId: 'alice',
      title: 'soon',
      message: 'x',
      expiresAt: new Date(Date.now() + 1_500).toISOString(),
    });
    await countIs(client, 1);
    await client.next((e) => e.event === 'deleted' && (e.data as { id: string }).id === soon.id);
    await countIs(client, 0);
    const replayed = await connected(project, 'alice', { 'last-event-id': '0' });
    expect(named(replayed, 'notification')).toEqual([]);
    expect(named(replayed, 'deleted')).toEqual([{ id: soon.id }]);
  });

  it('when a client reconnects with Last-Event-ID, then it gets what it missed once, in order, then live changes', async () => {
    const project = await svc.createProject();
    const a = api(project);
    const first = await connected(project, 'alice');
    await a.create({ userId: 'alice', title: 'seen', message: 'x' });
    const seen = await first.next((e) => e.event === 'notification');
    first.close();
    const missed = [];
    for (const title of ['m1', 'm2', 'm3']) missed.push(await a.create({ userId: 'alice', title, message: 'x' }));
    const deleted = await a.create({ userId: 'alice', title: 'gone', message: 'x' });
    await a.remove(deleted.id);
    await a.create({ userId: 'bob', title: 'not hers', message: 'x' });
    const again = await connected(project, 'alice', { 'last-event-id': seen.id! });
    const live = await a.create({ userId: 'alice', title: 'live', message: 'x' });
    await again.next((e) => e.event === 'notification' && (e.data as { id: string }).id === live.id);
    const titles = (named(again, 'notification') as { title: string }[]).map((n) => n.title);
    expect(titles).toEqual(['m1', 'm2', 'm3', 'live']);
    expect(named(again, 'deleted')).toEqual([{ id: deleted.id }]);
    const ids = again.events.filter((e) => e.event !== 'unread_count').map((e) => Number(e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id > Number(seen.id))).toBe(true);
    await countIs(again, 5);
  });

  it('when a real EventSource reads the stream, then each event id names one event (unread_count has none) and a dropped connection resumes exactly after the last change', async () => {
    const project = await svc.createProject();
    const raw = await connected(project, 'alice');
    type Received = { type: string; data: { id?: string; count?: number }; lastEventId: string };
    const received: Received[] = [];
    const source = new EventSource(`${base}/notifications/stream?userId=alice`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...project.headers } }),
    });
    for (const type of ['notification', 'unread_count'])
      source.addEventListener(type, (event) =>
        received.push({ type, data: JSON.parse(event.data) as Received['data'], lastEventId: event.lastEventId }),
      );
    const arrived = (match: (event: Received) => boolean) => waitFor(() => received.find(match), { timeoutMs: 15_000 });
    try {
      await arrived((e) => e.type === 'unread_count');
      const first = await api(project).create({ userId: 'alice', title: 'one', message: 'x' });
      await arrived((e) => e.type === 'unread_count' && e.data.count === 1);
      await countIs(raw, 1);
      // As sent: the first count gives the stream's position; the one after the change repeats no id.
      expect(raw.events.map((e) => [e.event, e.id])).toEqual([
        ['unread_count', raw.events[0].id],
        ['notification', raw.events[1].id],
        ['unread_count', undefined],
      ]);
      expect(raw.events[0].id).not.toBe(raw.events[1].id);

      // The server drops every connection; the reader comes back by itself with its Last-Event-ID.
      server.closeAllConnections();
      const second = await api(project).create({ userId: 'alice', title: 'two', message: 'x' });
      await arrived((e) => e.type === 'notification' && e.data.id === second.id);
      const notifications = received.filter((e) => e.type === 'notification');
      expect(notifications.map((e) => e.data.id)).toEqual([first.id, second.id]);
      expect(new Set(notifications.map((e) => e.lastEventId)).size).toBe(2);
    } finally {
      source.close();
    }
  }, 30_000);

  it('when more changes were missed than the replay limit, then the client gets reset and the current count', async () => {
    const project = await svc.createProject();
    const client = await connected(project, 'alice');
    const lastSeen = client.events[0].id!;
    client.close();
    for (let i = 0; i < 6; i++) await api(project).create({ userId: 'alice', title: `n${i}`, message: 'x' });
    const again = await connected(project, 'alice', { 'last-event-id': lastSeen });
    expect(again.events.map((e) => e.event)).toEqual(['reset', 'unread_count']);
    expect(lastCount(again)).toBe(6);
  });

  it("when another project changes, then this project's streams see nothing of it", async () => {
    const [mine, theirs] = [await svc.createProject(), await svc.createProject()];
    const client = await connected(mine, 'alice');
    await api(theirs).create({ userId: 'alice', title: 'theirs', message: 'x' });
    await api(theirs).create({ title: 'their broadcast', message: 'x' });
    const own = await api(mine).create({ userId: 'alice', title: 'mine', message: 'x' });
    await client.next((e) => e.event === 'notification');
    expect((named(client, 'notification') as { id: string }[]).map((n) => n.id)).toEqual([own.id]);
    expect(counts(client)).toEqual([0, 1]);
  });

  it('when the stream is idle, then a heartbeat comment keeps it alive', async () => {
    const project = await svc.createProject();
    const client = await connected(project, 'alice');
    await client.next(() => client.comments >= 2);
    expect(client.ended).toBe(false);
  });

  it('when a user or a project holds the most streams allowed, then one more is 429 and a closed one frees its slot', async () => {
    const project = await svc.createProject();
    const [one] = [await connected(project, 'alice'), await connected(project, 'alice')];
    const third = await refused(project, { userId: 'alice' });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    await connected(project, 'bob');
    const overProject = await refused(project, { userId: 'carol' });
    expect(overProject.status).toBe(429);
    one.close();
    await waitFor(async () => (await stream(project, 'alice')).status === 200);
  });

  it('when a client does not read, then it is disconnected once its buffer is full instead of growing memory', async () => {
    const project = await svc.createProject();
    const slow = await connected(project, 'alice');
    const reader = await connected(project, 'bob');
    slow.pause();
    const big = { blob: 'x'.repeat(400_000) };
    const { hub } = svc.parts.shared;
    expect(hub.openStreams(project)).toBe(2);
    for (let i = 0; i < 100 && hub.openStreams(project) === 2; i++) {
      await api(project).create({ title: 'big', message: 'x', data: big });
      // The reader takes each event in full before the next is sent.
      await waitFor(() => named(reader, 'notification').length === i + 1);
    }
    // The paused client cannot notice (it reads nothing); the server has let it go.
    expect(hub.openStreams(project)).toBe(1);
    expect(reader.ended).toBe(false);
  });

  it('when the query or Last-Event-ID is not valid, then 400; without keys, 401', async () => {
    const project = await svc.createProject();
    const noUser = await refused(project, {});
    expect(noUser.status).toBe(400);
    const badId = await refused(project, { userId: 'alice' }, { 'last-event-id': 'yesterday' });
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const noKeys = await refused(undefined, { userId: 'alice' });
    expect(noKeys.status).toBe(401);
  });
});
