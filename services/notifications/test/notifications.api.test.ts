import request, { type Response } from 'supertest';
import { createTestService, type TestProject, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { openapi } from '../src/openapi';
import { api as apiOf } from './support/notifications-test-service';

let svc: TestService;

/** A client of one project: every call sends that project's keys, checked against the document. */
function clientOf(project: TestProject) {
  const client = apiOf(svc.app, project.headers);
  const query = (q: Record<string, string | number | boolean>) =>
    Object.fromEntries(Object.entries(q).map(([key, value]) => [key, String(value)]));
  return {
    create: (body: object) => client.post('/notifications', { body }),
    list: (q: Record<string, string | number | boolean> = {}) => client.get('/notifications', { query: query(q) }),
    get: (id: string, q: Record<string, string> = {}) => client.get(`/notifications/${id}`, { query: q }),
    read: (id: string, q: Record<string, string> = {}) => client.patch(`/notifications/${id}/read`, { query: q }),
    readAll: (q: Record<string, string> = {}) => client.patch('/notifications/mark-all-read', { query: q }),
    remove: (id: string) => client.delete(`/notifications/${id}`),
  };
}
type Client = ReturnType<typeof clientOf>;

async function created(client: Client, body: object): Promise<Record<string, unknown> & { id: string }> {
  const res = await client.create(body);
  expect(res.status).toBe(201);
  return res.body;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  svc = await createTestService(notificationsService);
});

afterAll(async () => {
  await svc.close();
});

describe('POST /v1/notifications', () => {
  let api: Client;
  beforeAll(async () => {
    api = clientOf(await svc.createProject());
  });

  it('when only title and message are sent, then 201 with a broadcast of type info, unread, expiring in 30 days', async () => {
    const res = await api.create({ title: 'Welcome', message: 'Hi there' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: null,
      title: 'Welcome',
      message: 'Hi there',
      type: 'info',
      data: {},
      read: false,
      readAt: null,
      deletedAt: null,
    });
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(30 * DAY_MS);
    expect(Math.abs(Date.parse(res.body.createdAt) - Date.now())).toBeLessThan(60_000);
  });

  it('when every field is sent, then each is stored and returned as sent', async () => {
    const expiresAt = new Date(Date.now() + 2 * DAY_MS).toISOString();
    const data = { orderId: 42, nested: { list: [1, 'two', null], flag: true } };
    const body = {
      userId: 'user-1',
      title: '  Shipped ',
      message: 'Your order shipped',
      type: 'success',
      data,
      expiresAt,
    };
    const res = await api.create(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...body, read: false });
    expect((await api.get(res.body.id)).body).toEqual(res.body);
  });

  it('when unknown fields are sent, then they are ignored and never stored', async () => {
    const res = await api.create({ title: 't', message: 'm', read: true, id: 'mine', tenantId: 'x', color: 'red' });
    expect(res.status).toBe(201);
    expect(res.body.read).toBe(false);
    expect(res.body.id).not.toBe('mine');
    expect(res.body).not.toHaveProperty('color');
    expect((await api.get(res.body.id)).body).not.toHaveProperty('color');
  });

  it('when userId is explicitly null, then it is a broadcast', async () => {
    expect((await api.create({ userId: null, title: 't', message: 'm' })).body.userId).toBeNull();
  });

  it('when expiresAt is null, then the 30-day default applies', async () => {
    const res = await api.create({ title: 't', message: 'm', expiresAt: null });
    expect(res.status).toBe(201);
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(30 * DAY_MS);
  });

  it('when userId is 255 characters, then it is accepted', async () => {
    const userId = 'u'.repeat(255);
    expect((await api.create({ userId, title: 't', message: 'm' })).body.userId).toBe(userId);
  });

  it.each([
    ['title is missing', { message: 'm' }, 'title'],
    ['message is missing', { title: 't' }, 'message'],
    ['title is empty', { title: '', message: 'm' }, 'title'],
    ['title is only spaces', { title: '   ', message: 'm' }, 'title'],
    ['message is not a string', { title: 't', message: 42 }, 'message'],
    ['title is over 255 characters', { title: 'x'.repeat(256), message: 'm' }, 'title'],
    ['message is over 10000 characters', { title: 't', message: 'x'.repeat(10_001) }, 'message'],
    ['type is unknown', { title: 't', message: 'm', type: 'urgent' }, 'type'],
    ['data is an array', { title: 't', message: 'm', data: [1, 2] }, 'data'],
    ['data is a string', { title: 't', message: 'm', data: 'x' }, 'data'],
    ['userId is over 255 characters', { userId: 'u'.repeat(256), title: 't', message: 'm' }, 'userId'],
    ['userId is empty', { userId: '', title: 't', message: 'm' }, 'userId'],
    ['userId is a number', { userId: 7, title: 't', message: 'm' }, 'userId'],
    ['expiresAt is not a date', { title: 't', message: 'm', expiresAt: 'tomorrow' }, 'expiresAt'],
    ['expiresAt is an impossible date', { title: 't', message: 'm', expiresAt: '2030-13-45T00:00:00Z' }, 'expiresAt'],
    [
      'expiresAt is past the year 9999',
      { title: 't', message: 'm', expiresAt: '+010000-01-01T00:00:00.000Z' },
      'expiresAt',
    ],
    ['expiresAt is a number', { title: 't', message: 'm', expiresAt: 1700000000000 }, 'expiresAt'],
    [
      'expiresAt is in the past',
      { title: 't', message: 'm', expiresAt: new Date(Date.now() - 60_000).toISOString() },
      'expiresAt',
    ],
  ])('when %s, then 400 VALIDATION_ERROR naming the field', async (_case, body, field) => {
    const res = await api.create(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('when the body is not valid JSON, then 400 VALIDATION_ERROR', async () => {
    const project = await svc.createProject();
    const res = await apiOf(svc.app).post('/notifications', {
      headers: { ...project.headers, 'content-type': 'application/json' },
      body: '{"title": ',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the body is over 1 MiB, then 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await api.create({ title: 't', message: 'm', data: { blob: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('when the keys are missing, then 401 UNAUTHORIZED', async () => {
    const res = await apiOf(svc.app).post('/notifications', { body: { title: 't', message: 'm' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /v1/notifications/{id}', () => {
  let api: Client;
  let personal: { id: string };
  let broadcast: { id: string };
  beforeAll(async () => {
    api = clientOf(await svc.createProject());
    personal = await created(api, { userId: 'alice', title: 'For Alice', message: 'm' });
    broadcast = await created(api, { title: 'For everyone', message: 'm' });
  });

  it('when the notification exists, then 200 with it', async () => {
    const res = await api.get(personal.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(personal);
  });

  it.each([
    ['an unknown uuid', '4b0b4a4e-2b8a-4c8e-9d55-0e1b1c9b5f11'],
    ['an id that is not a uuid', 'not-a-uuid'],
  ])('when the id is %s, then 404 NOT_FOUND', async (_case, id) => {
    const res = await api.get(id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Notification not found' } });
  });

  it("when ?userId= names the owner or it is a broadcast, then 200; another user's notification is 404", async () => {
    expect((await api.get(personal.id, { userId: 'alice' })).status).toBe(200);
    expect((await api.get(broadcast.id, { userId: 'bob' })).status).toBe(200);
    expect((await api.get(personal.id, { userId: 'bob' })).status).toBe(404);
  });

  it('when ?userId= is over 255 characters, then 400', async () => {
    expect((await api.get(personal.id, { userId: 'u'.repeat(256) })).status).toBe(400);
  });
});

describe('GET /v1/notifications', () => {
  let api: Client;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    api = clientOf(await svc.createProject());
    // Created in this order, one at a time, so createdAt grows: newest first is the reverse.
    for (const [name, body] of [
      ['a1', { userId: 'alice', title: 'a1', message: 'm', type: 'info' }],
      ['b1', { userId: 'bob', title: 'b1', message: 'm', type: 'warning' }],
      ['all1', { title: 'all1', message: 'm', type: 'warning' }],
      ['a2', { userId: 'alice', title: 'a2', message: 'm', type: 'error' }],
      ['all2', { title: 'all2', message: 'm', type: 'info' }],
      ['a3', { userId: 'alice', title: 'a3', message: 'm', type: 'warning' }],
    ] as const) {
      ids[name] = (await created(api, body)).id;
    }
  });
  const titles = (res: Response) => res.body.notifications.map((n: { title: string }) => n.title);

  it('when no user is given, then every notification of the project is listed newest first with defaults limit 20 offset 0', async () => {
    const res = await api.list();
    expect(res.status).toBe(200);
    expect(titles(res)).toEqual(['a3', 'all2', 'a2', 'all1', 'b1', 'a1']);
    expect(res.body).toMatchObject({ total: 6, limit: 20, offset: 0 });
  });

  it("when userId is given, then that user's own and the broadcast notifications are listed, no one else's", async () => {
    const res = await api.list({ userId: 'alice' });
    expect(titles(res)).toEqual(['a3', 'all2', 'a2', 'all1', 'a1']);
    expect(res.body.total).toBe(5);
    const bob = await api.list({ userId: 'bob' });
    expect(titles(bob)).toEqual(['all2', 'all1', 'b1']);
    expect(bob.body.total).toBe(3);
    const nobody = await api.list({ userId: 'carol' });
    expect(titles(nobody)).toEqual(['all2', 'all1']);
  });

  it('when type is given, then only that type is listed and counted', async () => {
    const res = await api.list({ userId: 'alice', type: 'warning' });
    expect(titles(res)).toEqual(['a3', 'all1']);
    expect(res.body.total).toBe(2);
    expect((await api.list({ type: 'warning' })).body.total).toBe(3);
  });

  it('when limit and offset are given, then that slice is returned and total still counts every match', async () => {
    const first = await api.list({ userId: 'alice', limit: 2 });
    expect(titles(first)).toEqual(['a3', 'all2']);
    expect(first.body).toMatchObject({ total: 5, limit: 2, offset: 0 });
    const second = await api.list({ userId: 'alice', limit: 2, offset: 2 });
    expect(titles(second)).toEqual(['a2', 'all1']);
    const last = await api.list({ userId: 'alice', limit: 2, offset: 4 });
    expect(titles(last)).toEqual(['a1']);
    const beyond = await api.list({ userId: 'alice', limit: 2, offset: 50 });
    expect(beyond.body).toMatchObject({ notifications: [], total: 5, limit: 2, offset: 50 });
    expect((await api.list({ limit: 3, offset: 1 })).body.notifications.map((n: { title: string }) => n.title)).toEqual(
      ['all2', 'a2', 'all1'],
    );
  });

  it('when limit is 100, then it is accepted', async () => {
    expect((await api.list({ limit: 100 })).body.limit).toBe(100);
  });

  it.each([
    ['limit is 0', { limit: 0 }],
    ['limit is 101', { limit: 101 }],
    ['limit is -1', { limit: -1 }],
    ['limit is abc', { limit: 'abc' }],
    ['limit is 1.5', { limit: 1.5 }],
    ['offset is -1', { offset: -1 }],
    ['offset is abc', { offset: 'abc' }],
    ['type is unknown', { type: 'urgent' }],
    ['read is not a boolean', { read: 'maybe' }],
    ['userId is empty', { userId: '' }],
    ['userId is over 255 characters', { userId: 'u'.repeat(256) }],
  ])('when %s, then 400 VALIDATION_ERROR', async (_case, query) => {
    const res = await api.list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('PATCH /v1/notifications/{id}/read', () => {
  let api: Client;
  beforeAll(async () => {
    api = clientOf(await svc.createProject());
  });

  it('when an unread notification is marked read, then 200 with read true and readAt; marking again keeps the first readAt', async () => {
    const n = await created(api, { userId: 'alice', title: 't', message: 'm' });
    const first = await api.read(n.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: n.id, read: true });
    expect(Date.parse(first.body.readAt)).toBeGreaterThanOrEqual(Date.parse(n.createdAt as string));
    await sleep(5);
    const again = await api.read(n.id);
    expect(again.status).toBe(200);
    expect(again.body.readAt).toBe(first.body.readAt);
    expect((await api.get(n.id)).body).toMatchObject({ read: true, readAt: first.body.readAt });
  });

  it('when the owner marks their own notification read with ?userId=, then it is read for everyone who can see it', async () => {
    const n = await created(api, { userId: 'alice', title: 't', message: 'm' });
    expect((await api.read(n.id, { userId: 'alice' })).body.read).toBe(true);
    expect((await api.get(n.id)).body.read).toBe(true);
  });

  it('when ?userId= names someone else than the owner, then 404 and nothing changes', async () => {
    const n = await created(api, { userId: 'alice', title: 't', message: 'm' });
    expect((await api.read(n.id, { userId: 'bob' })).status).toBe(404);
    expect((await api.get(n.id)).body.read).toBe(false);
  });

  it('when a user marks a broadcast read, then it is read for that user only', async () => {
    const n = await created(api, { title: 'all', message: 'm' });
    const res = await api.read(n.id, { userId: 'alice' });
    expect(res.body).toMatchObject({ id: n.id, userId: null, read: true });
    expect(res.body.readAt).not.toBeNull();
    expect((await api.get(n.id, { userId: 'alice' })).body).toMatchObject({ read: true, readAt: res.body.readAt });
    expect((await api.get(n.id, { userId: 'bob' })).body).toMatchObject({ read: false, readAt: null });
    expect((await api.get(n.id)).body).toMatchObject({ read: false, readAt: null });
    const again = await api.read(n.id, { userId: 'alice' });
    expect(again.body.readAt).toBe(res.body.readAt);
  });

  it('when the same user marks a broadcast read twice at once, then both answers carry the one receipt time', async () => {
    const n = await created(api, { title: 'all', message: 'm' });
    const [a, b] = await Promise.all([api.read(n.id, { userId: 'carol' }), api.read(n.id, { userId: 'carol' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.readAt).toBe(b.body.readAt);
    expect((await api.get(n.id, { userId: 'carol' })).body.readAt).toBe(a.body.readAt);
  });

  it('when a broadcast is marked read without userId, then the notification itself is read, for every user', async () => {
    const n = await created(api, { title: 'all', message: 'm' });
    const res = await api.read(n.id);
    expect(res.body.read).toBe(true);
    expect((await api.get(n.id, { userId: 'bob' })).body).toMatchObject({ read: true, readAt: res.body.readAt });
  });

  it('when the id is unknown or not a uuid, then 404', async () => {
    expect((await api.read('4b0b4a4e-2b8a-4c8e-9d55-0e1b1c9b5f11')).status).toBe(404);
    expect((await api.read('nope')).status).toBe(404);
  });

  it('when userId is too long, then 400', async () => {
    const n = await created(api, { title: 'all', message: 'm' });
    expect((await api.read(n.id, { userId: 'u'.repeat(256) })).status).toBe(400);
  });
});

describe('read filter with per-user broadcasts', () => {
  let api: Client;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    api = clientOf(await svc.createProject());
    for (const name of ['aliceOwn', 'bobOwn', 'broadcastA', 'broadcastB']) {
      ids[name] = (
        await created(api, { userId: name.endsWith('Own') ? name.replace('Own', '') : null, title: name, message: 'm' })
      ).id;
    }
    await api.read(ids.aliceOwn);
    await api.read(ids.broadcastA, { userId: 'alice' });
  });
  const titles = (res: Response) => res.body.notifications.map((n: { title: string }) => n.title).sort();

  it('when read=true with a userId, then the own read ones and the broadcasts that user read are listed', async () => {
    const res = await api.list({ userId: 'alice', read: true });
    expect(titles(res)).toEqual(['aliceOwn', 'broadcastA']);
    expect(res.body.total).toBe(2);
    expect(res.body.notifications.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it('when read=false with a userId, then only what that user has not read is listed', async () => {
    const res = await api.list({ userId: 'alice', read: false });
    expect(titles(res)).toEqual(['broadcastB']);
    expect(res.body.total).toBe(1);
    const bob = await api.list({ userId: 'bob', read: false });
    expect(titles(bob)).toEqual(['bobOwn', 'broadcastA', 'broadcastB']);
  });

  it("when listing without a userId, then the notifications' own read state is used", async () => {
    expect(titles(await api.list({ read: true }))).toEqual(['aliceOwn']);
    expect(titles(await api.list({ read: false }))).toEqual(['bobOwn', 'broadcastA', 'broadcastB']);
  });

  it('when a userId is given, then read and readAt in the list are as that user sees them', async () => {
    const alice = await api.list({ userId: 'alice' });
    const bob = await api.list({ userId: 'bob' });
    const byTitle = (res: Response, title: string) =>
      res.body.notifications.find((n: { title: string }) => n.title === title);
    expect(byTitle(alice, 'broadcastA')).toMatchObject({ read: true });
    expect(byTitle(alice, 'broadcastA').readAt).not.toBeNull();
    expect(byTitle(bob, 'broadcastA')).toMatchObject({ read: false, readAt: null });
  });
});

describe('PATCH /v1/notifications/mark-all-read', () => {
  let api: Client;
  beforeAll(async () => {
    api = clientOf(await svc.createProject());
  });

  it.each([
    ['userId is missing', {}],
    ['userId is empty', { userId: '' }],
  ])('when %s, then 400 VALIDATION_ERROR', async (_case, query) => {
    const res = await api.readAll(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it("when user X marks all read, then X's own and broadcasts are read for X, and what Y sees does not change", async () => {
    await created(api, { userId: 'x', title: 'x1', message: 'm' });
    const x2 = await created(api, { userId: 'x', title: 'x2', message: 'm' });
    const y1 = await created(api, { userId: 'y', title: 'y1', message: 'm' });
    await created(api, { title: 'b1', message: 'm' });
    const b2 = await created(api, { title: 'b2', message: 'm' });
    await api.read(x2.id); // already read: not counted
    await api.read(b2.id, { userId: 'x' }); // already read by x: not counted

    const res = await api.readAll({ userId: 'x' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, updated: 2, count: 2, message: expect.any(String) });

    const x = await api.list({ userId: 'x' });
    expect(x.body.notifications.every((n: { read: boolean; readAt: string | null }) => n.read && n.readAt)).toBe(true);
    expect((await api.list({ userId: 'x', read: false })).body.total).toBe(0);
    const y = await api.list({ userId: 'y', read: false });
    expect(y.body.notifications.map((n: { title: string }) => n.title)).toEqual(['b2', 'b1', 'y1']);
    expect((await api.get(y1.id)).body.read).toBe(false);
    // The broadcasts themselves stay unread: only X's receipts were written.
    expect((await api.list({ read: false })).body.notifications.map((n: { title: string }) => n.title)).toEqual([
      'b2',
      'b1',
      'y1',
    ]);

    const again = await api.readAll({ userId: 'x' });
    expect(again.body).toMatchObject({ updated: 0, count: 0 });
    const forY = await api.readAll({ userId: 'y' });
    expect(forY.body).toMatchObject({ updated: 3, count: 3 });
  });

  it('when the user has nothing, then 200 with updated 0', async () => {
    const empty = clientOf(await svc.createProject());
    expect((await empty.readAll({ userId: 'nobody' })).body).toMatchObject({ success: true, updated: 0, count: 0 });
  });
});

describe('DELETE /v1/notifications/{id}', () => {
  let api: Client;
  beforeAll(async () => {
    api = clientOf(await svc.createProject());
  });

  it('when a visible notification is deleted, then 204, and it is hidden from every query and 404 afterwards', async () => {
    const keep = await created(api, { userId: 'alice', title: 'keep', message: 'm' });
    const gone = await created(api, { userId: 'alice', title: 'gone', message: 'm' });
    const goneBroadcast = await created(api, { title: 'gone broadcast', message: 'm' });
    const res = await api.remove(gone.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api.remove(goneBroadcast.id)).status).toBe(204);

    expect((await api.get(gone.id)).status).toBe(404);
    expect((await api.get(goneBroadcast.id, { userId: 'alice' })).status).toBe(404);
    expect((await api.read(gone.id)).status).toBe(404);
    const list = await api.list({ userId: 'alice' });
    expect(list.body.notifications.map((n: { id: string }) => n.id)).toEqual([keep.id]);
    expect(list.body.total).toBe(1);
    expect((await api.list()).body.total).toBe(1);
    expect((await api.readAll({ userId: 'alice' })).body.updated).toBe(1);
  });

  it('when a notification is deleted twice, then the second delete is 404', async () => {
    const n = await created(api, { title: 't', message: 'm' });
    expect((await api.remove(n.id)).status).toBe(204);
    const again = await api.remove(n.id);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
  });

  it('when the id is unknown or not a uuid, then 404', async () => {
    expect((await api.remove('4b0b4a4e-2b8a-4c8e-9d55-0e1b1c9b5f11')).status).toBe(404);
    expect((await api.remove('not-a-uuid')).status).toBe(404);
  });
});

describe('expiry', () => {
  it('when a notification passes expiresAt, then it is left out of lists and counts, 404 by id, and not marked by mark-all-read', async () => {
    const api = clientOf(await svc.createProject());
    const lasting = await created(api, { userId: 'alice', title: 'lasting', message: 'm' });
    const soon = new Date(Date.now() + 1_000).toISOString();
    const mine = await created(api, { userId: 'alice', title: 'short', message: 'm', expiresAt: soon });
    const broadcast = await created(api, { title: 'short broadcast', message: 'm', expiresAt: soon });
    expect(mine.expiresAt).toBe(soon);
    expect((await api.list({ userId: 'alice' })).body.total).toBe(3);

    await sleep(Date.parse(soon) - Date.now() + 50);

    const list = await api.list({ userId: 'alice' });
    expect(list.body.notifications.map((n: { id: string }) => n.id)).toEqual([lasting.id]);
    expect(list.body.total).toBe(1);
    expect((await api.list()).body.total).toBe(1);
    expect((await api.list({ read: false })).body.total).toBe(1);
    for (const id of [mine.id, broadcast.id]) {
      expect((await api.get(id)).status).toBe(404);
      expect((await api.read(id, { userId: 'alice' })).status).toBe(404);
      expect((await api.remove(id)).status).toBe(404);
    }
    expect((await api.readAll({ userId: 'alice' })).body.updated).toBe(1);
  });
});

describe('tenant isolation', () => {
  it("when another project's keys are used, then every id is 404, lists are empty and mark-all-read changes nothing", async () => {
    const a = clientOf(await svc.createProject());
    const b = clientOf(await svc.createProject());
    const personal = await created(a, { userId: 'alice', title: 'secret', message: 'm' });
    const broadcast = await created(a, { title: 'secret broadcast', message: 'm' });

    for (const id of [personal.id, broadcast.id]) {
      expect((await b.get(id)).status).toBe(404);
      expect((await b.get(id, { userId: 'alice' })).status).toBe(404);
      expect((await b.read(id)).status).toBe(404);
      expect((await b.read(id, { userId: 'alice' })).status).toBe(404);
      expect((await b.remove(id)).status).toBe(404);
    }
    const queries: Record<string, string | boolean>[] = [{}, { userId: 'alice' }, { userId: 'alice', read: false }];
    for (const query of queries) {
      expect((await b.list(query)).body).toMatchObject({ notifications: [], total: 0 });
    }
    expect((await b.readAll({ userId: 'alice' })).body.updated).toBe(0);

    const mine = await a.list({ userId: 'alice' });
    expect(mine.body.total).toBe(2);
    expect(mine.body.notifications.every((n: { read: boolean }) => !n.read)).toBe(true);
  });

  it.each([
    ['POST', '/v1/notifications'],
    ['GET', '/v1/notifications'],
    ['GET', '/v1/notifications/4b0b4a4e-2b8a-4c8e-9d55-0e1b1c9b5f11'],
    ['PATCH', '/v1/notifications/4b0b4a4e-2b8a-4c8e-9d55-0e1b1c9b5f11/read'],
    ['PATCH', '/v1/notifications/mark-all-read?userId=alice'],
    ['DELETE', '/v1/notifications/4b0b4a4e-2b8a-4c8e-9d55-0e1b1c9b5f11'],
  ])('when %s %s comes without keys, then 401 UNAUTHORIZED', async (method, url) => {
    const res = await apiOf(svc.app).call(method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete', url);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it("when one project's public key comes with another project's secret, then 401", async () => {
    const a = await svc.createProject();
    const b = await svc.createProject();
    const res = await apiOf(svc.app).get('/notifications', { headers: { ...a.headers, 'x-secret-key': b.secretKey } });
    expect(res.status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('when /v1/openapi.json is fetched, then it is the document the responses are checked against', async () => {
    const res = await request(svc.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(openapi)));
  });
});
