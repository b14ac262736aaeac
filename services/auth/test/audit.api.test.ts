import { randomUUID } from 'node:crypto';
import { AUTH_EVENTS, type PasswordResetRequestedData, type UserRegisteredData } from '@platform/events';
import type { TestProject, TestService } from '@platform/testkit';
import jwt from 'jsonwebtoken';
import type { AuthShared } from '../src';
import { pruneSecurityEvents } from '../src/audit/audit.prune';
import {
  apiOf,
  outboxEvents,
  PASSWORD,
  registerUser,
  startAuth,
  tokenOf,
  uniqueEmail,
  type Api,
} from './support/auth-test-service';

let svc: TestService<AuthShared>;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject({ requireEmailVerification: true });
});
afterAll(() => svc.close());

const AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
const sidOf = (accessToken: string) => (jwt.decode(accessToken) as { sid: string }).sid;

interface Event {
  id: string;
  type: string;
  userId: string | null;
  sessionId: string | null;
  ip: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

async function eventsOfUser(userId: string, query: Record<string, string> = {}, p = project): Promise<Event[]> {
  const res = await api.get(`/users/${userId}/events`, { headers: p.headers, query: { limit: '100', ...query } });
  expect(res.status).toBe(200);
  return res.body.events;
}
const typesOf = (events: Event[]) => events.map((e) => e.type).reverse();
const login = (email: string, password = PASSWORD, p = project) =>
  api.post('/login', { headers: { ...p.headers, 'user-agent': AGENT }, body: { email, password } });

describe('the audit trail records', () => {
  it('sign-up, sign-in and a failed sign-in with its reason (never the password), with client address, user agent and session', async () => {
    const { user, accessToken } = await registerUser(api, project);
    await login(user.email, 'the wrong password');
    const signedIn = await login(user.email);
    const events = await eventsOfUser(user.id);
    expect(typesOf(events)).toEqual(['sign_up', 'sign_in_failed', 'sign_in']);
    const [signIn, failed, signUp] = events;
    expect(signUp).toMatchObject({ userId: user.id, sessionId: sidOf(accessToken) });
    expect(failed).toMatchObject({ data: { reason: 'wrong_password' }, userAgent: AGENT, ip: expect.any(String) });
    expect(JSON.stringify(failed)).not.toContain('the wrong password');
    expect(signIn).toMatchObject({
      sessionId: sidOf(signedIn.body.accessToken),
      data: { method: 'password', aal: 'aal1' },
      userAgent: AGENT,
    });
  });

  it('a lockout after five failures, and the sign-ins refused while locked', async () => {
    const { user } = await registerUser(api, project);
    for (let i = 0; i < 5; i++) await login(user.email, 'the wrong password');
    expect((await login(user.email)).status).toBe(423);
    const types = typesOf(await eventsOfUser(user.id));
    expect(types.slice(1)).toEqual([...Array(5).fill('sign_in_failed'), 'lockout', 'sign_in_failed']);
    const [lockedOut] = await eventsOfUser(user.id, { type: 'sign_in_failed', limit: '1' });
    expect(lockedOut.data).toEqual({ reason: 'locked' });
  });

  it('a failed sign-in with an email of no account, in the project trail without a user', async () => {
    const email = uniqueEmail('nobody');
    await login(email);
    const res = await api.get('/events', { headers: project.headers, query: { type: 'sign_in_failed', limit: '5' } });
    expect(res.body.events[0]).toMatchObject({ userId: null, data: { reason: 'unknown_email' } });
    expect(JSON.stringify(res.body.events[0])).not.toContain(email);
  });

  it('refresh-token reuse and the session it ended', async () => {
    const { user, accessToken, refreshToken } = await registerUser(api, project);
    await api.post('/refresh-token', { headers: project.headers, body: { refreshToken } });
    await api.post('/refresh-token', { headers: project.headers, body: { refreshToken } });
    const events = await eventsOfUser(user.id);
    expect(typesOf(events)).toEqual(['sign_up', 'refresh_token_reused', 'session_ended']);
    expect(events[0]).toMatchObject({ sessionId: sidOf(accessToken), data: { endedBy: 'reuse_detected' } });
  });

  it('a password change and the other sessions it ended, by the session that asked', async () => {
    const { user, accessToken } = await registerUser(api, project);
    const second = await login(user.email);
    await api.post('/me/password', {
      bearer: second.body.accessToken,
      body: { currentPassword: PASSWORD, newPassword: 'another good password' },
    });
    const events = await eventsOfUser(user.id);
    expect(typesOf(events)).toEqual(['sign_up', 'sign_in', 'password_changed', 'session_ended']);
    expect(events[0]).toMatchObject({
      sessionId: sidOf(accessToken),
      data: { endedBy: 'password_change', bySessionId: sidOf(second.body.accessToken) },
    });
  });

  it('a password reset, an e-mail verification, and sessions ended by the user and by the project', async () => {
    const { user, accessToken } = await registerUser(api, project);
    const registered = (await outboxEvents<UserRegisteredData>(svc.deps.db, project, AUTH_EVENTS.userRegistered)).find(
      (e) => e.data.userId === user.id,
    )!;
    await api.post('/verify-email', { body: { token: tokenOf(registered.data.verification!.link) } });
    const second = await login(user.email);
    const third = await login(user.email);
    await api.delete(`/sessions/${sidOf(second.body.accessToken)}`, { bearer: third.body.accessToken });
    await api.delete(`/users/${user.id}/sessions/${sidOf(third.body.accessToken)}`, { headers: project.headers });
    await api.post('/forgot-password', { headers: project.headers, body: { email: user.email } });
    const reset = (
      await outboxEvents<PasswordResetRequestedData>(svc.deps.db, project, AUTH_EVENTS.passwordResetRequested)
    ).find((e) => e.data.userId === user.id)!;
    await api.post('/reset-password', {
      headers: project.headers,
      body: { token: tokenOf(reset.data.link), password: 'a reset password!' },
    });

    const events = await eventsOfUser(user.id);
    expect(typesOf(events)).toEqual([
      'sign_up',
      'email_verified',
      'sign_in',
      'sign_in',
      'session_ended',
      'session_ended',
      'password_reset',
      'session_ended',
    ]);
    const ended = events.filter((e) => e.type === 'session_ended').reverse();
    expect(ended.map((e) => [e.sessionId, e.data.endedBy])).toEqual([
      [sidOf(second.body.accessToken), 'user'],
      [sidOf(third.body.accessToken), 'project'],
      [sidOf(accessToken), 'password_reset'],
    ]);
    expect(ended[0].data.bySessionId).toBe(sidOf(third.body.accessToken));
  });

  it('logout, as one ended session per live session', async () => {
    const { user, refreshToken } = await registerUser(api, project);
    await login(user.email);
    await api.post('/logout', { headers: project.headers, body: { refreshToken } });
    const ended = await eventsOfUser(user.id, { type: 'session_ended' });
    expect(ended.map((e) => e.data.endedBy)).toEqual(['logout', 'logout']);
  });
});

describe('GET /v1/me/events', () => {
  it("when a user reads their history, then only their own events are there, never another user's", async () => {
    const alice = await registerUser(api, project);
    const bob = await registerUser(api, project);
    await login(bob.user.email, 'the wrong password');
    const res = await api.get('/me/events', { bearer: alice.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: Event) => e.type)).toEqual(['sign_up']);
    expect(res.body.events.every((e: Event) => e.userId === alice.user.id)).toBe(true);
    expect(res.body.nextCursor).toBeNull();
  });

  it('when there is no bearer, then 401; when a filter is bad, then 400', async () => {
    const { accessToken } = await registerUser(api, project);
    expect((await api.get('/me/events')).status).toBe(401);
    const bad = await api.get('/me/events', { bearer: accessToken, query: { type: 'not_a_type' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /v1/events and /v1/users/{userId}/events (project keys)', () => {
  it("when another project reads, then none of this project's events or users are visible", async () => {
    const other = await svc.createProject();
    const { user } = await registerUser(api, project);
    const theirs = await api.get('/events', { headers: other.headers });
    expect(theirs.body.events).toEqual([]);
    const byUser = await api.get(`/users/${user.id}/events`, { headers: other.headers });
    expect(byUser.status).toBe(404);
    expect(byUser.body.error.code).toBe('NOT_FOUND');
  });

  it('when paging with a cursor, then every event comes once, newest first, and the last page says so', async () => {
    const fresh = await svc.createProject();
    const { user } = await registerUser(api, fresh);
    for (let i = 0; i < 4; i++) await login(user.email, 'the wrong password', fresh);
    const seen: Event[] = [];
    let cursor: string | undefined;
    for (;;) {
      const query: Record<string, string> = { limit: '2', ...(cursor ? { cursor } : {}) };
      const res = await api.get('/events', { headers: fresh.headers, query });
      expect(res.status).toBe(200);
      seen.push(...res.body.events);
      if (!res.body.nextCursor) break;
      cursor = res.body.nextCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((e) => e.id)).size).toBe(5);
    const times = seen.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('when filtered by type and time, then only matching events come', async () => {
    const fresh = await svc.createProject();
    const { user } = await registerUser(api, fresh);
    await svc.deps
      .db('security_events')
      .where({ user_id: user.id })
      .update({ created_at: new Date(Date.now() - 3_600_000) });
    await login(user.email, PASSWORD, fresh);
    const since = new Date(Date.now() - 60_000).toISOString();
    const recent = await api.get('/events', { headers: fresh.headers, query: { from: since } });
    expect(recent.body.events.map((e: Event) => e.type)).toEqual(['sign_in']);
    const before = await api.get('/events', { headers: fresh.headers, query: { to: since } });
    expect(before.body.events.map((e: Event) => e.type)).toEqual(['sign_up']);
    const both = await api.get(`/users/${user.id}/events`, {
      headers: fresh.headers,
      query: { type: 'sign_up,sign_in' },
    });
    expect(both.body.events).toHaveLength(2);
  });

  it('when the cursor is not one we gave, then 400', async () => {
    const res = await api.get('/events', { headers: project.headers, query: { cursor: 'bm9wZQ' } });
    expect(res.status).toBe(400);
    const { user } = await registerUser(api, project);
    const byUser = await api.get(`/users/${user.id}/events`, { headers: project.headers, query: { limit: '500' } });
    expect(byUser.status).toBe(400);
  });

  it('when the keys are missing, then 401', async () => {
    expect((await api.get('/events')).status).toBe(401);
    expect((await api.get(`/users/${randomUUID()}/events`)).status).toBe(401);
  });
});

describe('retention and erasure', () => {
  it('when events are older than the retention, then the prune job removes them and keeps the rest', async () => {
    const { user } = await registerUser(api, project);
    await login(user.email);
    const retention = svc.parts.shared.config.eventRetentionDays;
    expect(retention).toBe(90);
    await svc.deps
      .db('security_events')
      .where({ user_id: user.id, type: 'sign_up' })
      .update({ created_at: new Date(Date.now() - (retention + 1) * 86_400_000) });
    await pruneSecurityEvents(svc.deps.db, retention);
    expect(typesOf(await eventsOfUser(user.id))).toEqual(['sign_in']);
  });

  it("when the user is deleted, then the user's events go with them", async () => {
    const { user } = await registerUser(api, project);
    await svc.deps.db('users').where({ id: user.id }).delete();
    expect(await svc.deps.db('security_events').where({ user_id: user.id }).select('id')).toEqual([]);
  });
});
