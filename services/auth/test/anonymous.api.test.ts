import jwt from 'jsonwebtoken';
import request from 'supertest';
import { AUTH_EVENTS, userErasureHandler, type UserDeletedData } from '@platform/events';
import { createTestService, type TestProject, type TestService } from '@platform/testkit';
import { notificationsService } from '../../notifications/src';
import { eraseUser } from '../../notifications/src/notifications/user-erasure';
import { pruneAnonymousUsers } from '../src/anonymous/anonymous.prune';
import { apiOf, outboxEvents, PASSWORD, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;
let closed: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject({ anonymousSignIn: true });
  closed = await svc.createProject();
});
afterAll(() => svc.close());

const claimsOf = (token: string) => jwt.decode(token) as Record<string, unknown>;
const anonymous = (p = project) => api.post('/anonymous', { headers: p.headers, body: {} });

describe('POST /v1/anonymous', () => {
  it('when the project enables it, then a user without e-mail and a session whose token says is_anonymous', async () => {
    const res = await anonymous();
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: null, isAnonymous: true });
    const claims = claimsOf(res.body.accessToken);
    expect(claims).toMatchObject({ sub: res.body.user.id, is_anonymous: true, aal: 'aal1' });
    expect(claims.sid).toEqual(expect.any(String));
    const me = await api.get('/me', { bearer: res.body.accessToken });
    expect(me.body.user).toMatchObject({ id: res.body.user.id, isAnonymous: true });
    const refreshed = await api.post('/refresh-token', {
      headers: project.headers,
      body: { refreshToken: res.body.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.accessToken).is_anonymous).toBe(true);
    const events = await api.get(`/users/${res.body.user.id}/events`, { headers: project.headers });
    expect(events.body.events.map((e: { type: string; data: unknown }) => [e.type, e.data])).toEqual([
      ['sign_up', { method: 'anonymous' }],
    ]);
  });

  it('when the project does not enable it, then 403 and no user', async () => {
    const res = await anonymous(closed);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('when a password user signs in, then the token says is_anonymous false', async () => {
    const email = uniqueEmail();
    const res = await api.post('/register', { headers: project.headers, body: { email, password: PASSWORD } });
    expect(claimsOf(res.body.accessToken).is_anonymous).toBe(false);
  });
});

describe('POST /v1/me/convert', () => {
  it('when an anonymous user adds an e-mail and password, then the same id signs in with them', async () => {
    const anon = (await anonymous()).body;
    await api.patch('/me', { bearer: anon.accessToken, body: { metadata: { cart: ['book'] } } });
    const email = uniqueEmail('converted');
    const res = await api.post('/me/convert', {
      headers: project.headers,
      bearer: anon.accessToken,
      body: { email, password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: anon.user.id, email, isAnonymous: false, metadata: { cart: ['book'] } });
    expect(claimsOf(res.body.accessToken)).toMatchObject({ sub: anon.user.id, is_anonymous: false, email });
    expect(claimsOf(res.body.accessToken).sid).toBe(claimsOf(anon.accessToken).sid);

    const login = await api.post('/login', { headers: project.headers, body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(anon.user.id);
    const registered = await outboxEvents<{ userId: string }>(svc.deps.db, project, AUTH_EVENTS.userRegistered);
    expect(registered.map((e) => e.data.userId)).toContain(anon.user.id);

    const again = await api.post('/me/convert', {
      headers: project.headers,
      bearer: res.body.accessToken,
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    expect(again.status).toBe(409);
  });

  it('when the e-mail belongs to another user, then 409 and the user stays anonymous', async () => {
    const email = uniqueEmail();
    await api.post('/register', { headers: project.headers, body: { email, password: PASSWORD } });
    const anon = (await anonymous()).body;
    const res = await api.post('/me/convert', {
      headers: project.headers,
      bearer: anon.accessToken,
      body: { email, password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('USER_ALREADY_EXISTS');
    expect((await api.get('/me', { bearer: anon.accessToken })).body.user.isAnonymous).toBe(true);
  });

  it("when another project's keys are sent with the token, then 401", async () => {
    const anon = (await anonymous()).body;
    const other = await svc.createProject({ anonymousSignIn: true });
    const res = await api.post('/me/convert', {
      headers: other.headers,
      bearer: anon.accessToken,
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    expect(res.status).toBe(401);
  });
});

describe('anonymous users prune', () => {
  it('when an anonymous user is older than the limit, then it is deleted with auth.user.deleted; signed-up users stay', async () => {
    const stale = (await anonymous()).body;
    const kept = (await anonymous()).body;
    const converted = (await anonymous()).body;
    await api.post('/me/convert', {
      headers: project.headers,
      bearer: converted.accessToken,
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    await svc.deps
      .db('users')
      .whereIn('id', [stale.user.id, converted.user.id])
      .update({ created_at: svc.deps.db.raw("now() - interval '2 days'") });
    await svc.deps
      .db('users')
      .where({ id: stale.user.id })
      .update({ anonymous_since: svc.deps.db.raw("now() - interval '2 days'") });

    const result = await pruneAnonymousUsers(svc.deps.db, { maxAgeMs: 24 * 3600_000, intervalMs: 1000, batchSize: 10 });
    expect(result.removed).toBe(1);
    expect(await svc.deps.db('users').where({ id: stale.user.id }).first()).toBeUndefined();
    expect(await svc.deps.db('users').where({ id: kept.user.id }).first()).toBeDefined();
    expect(await svc.deps.db('users').where({ id: converted.user.id }).first()).toBeDefined();
    expect(await svc.deps.db('sessions').where({ user_id: stale.user.id }).first()).toBeUndefined();
    const deleted = await outboxEvents<{ userId: string; reason: string }>(
      svc.deps.db,
      project,
      AUTH_EVENTS.userDeleted,
    );
    expect(deleted.map((e) => e.data)).toContainEqual({
      userId: stale.user.id,
      reason: 'anonymous_pruned',
      email: null,
    });
    const refresh = await api.post('/refresh-token', {
      headers: project.headers,
      body: { refreshToken: stale.refreshToken },
    });
    expect(refresh.status).toBe(401);
  });

  it('when the project deletes a user, then the same event is written', async () => {
    const anon = (await anonymous()).body;
    expect((await api.delete(`/users/${anon.user.id}`, { headers: project.headers })).status).toBe(204);
    const deleted = await outboxEvents<{ userId: string; reason: string }>(
      svc.deps.db,
      project,
      AUTH_EVENTS.userDeleted,
    );
    expect(deleted.map((e) => e.data)).toContainEqual({ userId: anon.user.id, reason: 'deleted', email: null });
  });
});

describe("an anonymous user's token in another service", () => {
  it('when it calls the notifications inbox, then it is accepted as that user, and pruning erases its notifications there', async () => {
    const notifications = await createTestService(notificationsService);
    try {
      // The same project in the other service's platform directory (each test service has its own).
      const from = svc.deps.platformDb;
      const to = notifications.deps.platformDb;
      await to('tenants').insert(await from('tenants').where({ id: project.tenantId }));
      await to('projects').insert(await from('projects').where({ id: project.projectId }));
      await to('api_keys').insert(await from('api_keys').where({ project_id: project.projectId }));
      const anon = (await anonymous()).body;
      const created = await request(notifications.app)
        .post('/v1/notifications')
        .set(project.headers)
        .send({ userId: anon.user.id, title: 'Welcome', message: 'Start here' });
      expect(created.status).toBe(201);
      const inbox = await request(notifications.app)
        .get('/v1/me/notifications')
        .set('authorization', `Bearer ${anon.accessToken}`);
      expect(inbox.status).toBe(200);
      expect(JSON.stringify(inbox.body)).toContain(created.body.id);

      // Pruned: the event auth writes makes the other service erase what it holds of the user.
      await svc.deps
        .db('users')
        .where({ id: anon.user.id })
        .update({ anonymous_since: svc.deps.db.raw("now() - interval '400 days'") });
      await pruneAnonymousUsers(svc.deps.db, { maxAgeMs: 365 * 24 * 3600_000, intervalMs: 1000, batchSize: 10 });
      const deleted = (await outboxEvents<UserDeletedData>(svc.deps.db, project, AUTH_EVENTS.userDeleted)).find(
        (e) => e.data.userId === anon.user.id,
      );
      expect(deleted).toBeDefined();
      await userErasureHandler(notifications.deps, { service: 'notifications', erase: eraseUser })(deleted!);
      const rows = await notifications.deps.db('notifications').where({ user_id: anon.user.id });
      expect(rows).toEqual([]);
    } finally {
      await notifications.close();
    }
  });
});

describe('requests anonymous sign-in refuses', () => {
  it('when keys are missing or the body is malformed, then 401 or 400', async () => {
    expect((await api.post('/anonymous', { body: {} })).status).toBe(401);
    expect((await api.post('/anonymous', { headers: project.headers, body: { metadata: 'x' } })).status).toBe(400);
    const anon = (await anonymous()).body;
    const bad = await api.post('/me/convert', {
      headers: project.headers,
      bearer: anon.accessToken,
      body: { email: 'not-an-email', password: PASSWORD },
    });
    expect(bad.status).toBe(400);
  });
});
