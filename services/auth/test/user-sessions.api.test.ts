import { AUTH_EVENTS, type PasswordResetRequestedData } from '@platform/events';
import type { TestProject, TestService } from '@platform/testkit';
import jwt from 'jsonwebtoken';
import { apiOf, outboxEvents, PASSWORD, registerUser, startAuth, tokenOf, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject();
});
afterAll(() => svc.close());

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const login = async (email: string, userAgent = CHROME_MAC, p: TestProject = project): Promise<Tokens> => {
  const res = await api.post('/login', {
    headers: { ...p.headers, 'user-agent': userAgent },
    body: { email, password: PASSWORD },
  });
  expect(res.status).toBe(200);
  return res.body;
};
const refresh = (refreshToken: string) =>
  api.post('/refresh-token', { headers: project.headers, body: { refreshToken } });
const sessionsOf = (bearer: string) => api.get('/sessions', { bearer });
const sidOf = (accessToken: string) => (jwt.decode(accessToken) as { sid: string }).sid;

/** A user with two sign-ins: the registration's session and a login from another browser. */
async function userWithTwoSessions() {
  const registered = await registerUser(api, project);
  const second = await login(registered.user.email, FIREFOX_WINDOWS);
  return { user: registered.user, first: registered as Tokens, second };
}

describe('access tokens', () => {
  it('when issued, then they carry sid, aal and the project audience, and a standard verifier checks iss and aud', async () => {
    const { user, accessToken } = await registerUser(api, project);
    const { keys } = (await api.get('/.well-known/jwks.json')).body as { keys: jwt.JwtHeader[] };
    const publicKey = (await import('node:crypto')).createPublicKey({ key: keys[0] as never, format: 'jwk' });
    const claims = jwt.verify(accessToken, publicKey, {
      algorithms: ['RS256'],
      issuer: 'platform-auth',
      audience: `urn:platform:project:${project.projectId}`,
    }) as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: user.id, sid: expect.any(String), aal: 'aal1' });
    // Another project's audience does not accept it.
    expect(() =>
      jwt.verify(accessToken, publicKey, { algorithms: ['RS256'], audience: 'urn:platform:project:someone-else' }),
    ).toThrow(/audience/);
  });
});

describe('GET /v1/sessions', () => {
  it('when a user signed in twice, then both sessions are listed with device, address and method, the current one marked', async () => {
    const { first, second } = await userWithTwoSessions();
    const res = await sessionsOf(second.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(2);
    const current = res.body.sessions.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({
      id: sidOf(second.accessToken),
      deviceLabel: 'Firefox on Windows',
      userAgent: FIREFOX_WINDOWS,
      method: 'password',
      aal: 'aal1',
      ip: expect.any(String),
    });
    const other = res.body.sessions.find((s: { current: boolean }) => !s.current);
    expect(other).toMatchObject({ id: sidOf(first.accessToken), method: 'registration' });
  });

  it('when a refresh token rotates, then its session stays the same and records the refresh', async () => {
    const { first } = await userWithTwoSessions();
    const before = (await sessionsOf(first.accessToken)).body.sessions.find((s: { current: boolean }) => s.current);
    const rotated = await refresh(first.refreshToken);
    expect(sidOf(rotated.body.accessToken)).toBe(before.id);
    const after = (await sessionsOf(rotated.body.accessToken)).body.sessions.find(
      (s: { current: boolean }) => s.current,
    );
    expect(after.createdAt).toBe(before.createdAt);
    expect(new Date(after.lastRefreshedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(before.lastRefreshedAt).getTime(),
    );
  });

  it('when a rotated refresh token is reused, then its session is no longer listed and the other stays', async () => {
    const { first, second } = await userWithTwoSessions();
    await refresh(first.refreshToken);
    expect((await refresh(first.refreshToken)).status).toBe(401);
    const ids = (await sessionsOf(second.accessToken)).body.sessions.map((s: { id: string }) => s.id);
    expect(ids).toEqual([sidOf(second.accessToken)]);
  });

  it('when there is no bearer, then 401', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await api.get('/sessions')).status).toBe(401);
    expect((await api.delete('/sessions', { query: { scope: 'others' } })).status).toBe(401);
    expect((await api.get(`/sessions/${id}`)).status).toBe(401);
    expect((await api.delete(`/sessions/${id}`)).status).toBe(401);
  });
});

describe('DELETE /v1/sessions/{id}', () => {
  it('when the user ends one session, then its refresh token dies at once, it is gone from the list, and the other lives', async () => {
    const { first, second } = await userWithTwoSessions();
    const res = await api.delete(`/sessions/${sidOf(first.accessToken)}`, { bearer: second.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Session ended', ended: [sidOf(first.accessToken)] });
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(200);
    expect((await api.get(`/sessions/${sidOf(first.accessToken)}`, { bearer: second.accessToken })).status).toBe(404);
  });

  it("when the id is another user's session, then 404 and that session lives on", async () => {
    const alice = await registerUser(api, project);
    const bob = await registerUser(api, project);
    const res = await api.delete(`/sessions/${sidOf(bob.accessToken)}`, { bearer: alice.accessToken });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await refresh(bob.refreshToken)).status).toBe(200);
    expect((await api.get(`/sessions/${sidOf(bob.accessToken)}`, { bearer: alice.accessToken })).status).toBe(404);
  });

  it('when the id is not a session id at all, then 404', async () => {
    const { accessToken } = await registerUser(api, project);
    expect((await api.delete('/sessions/not-a-uuid', { bearer: accessToken })).status).toBe(404);
  });
});

describe('DELETE /v1/sessions?scope=', () => {
  it('when scope=others, then every session but the current one ends', async () => {
    const { user, first, second } = await userWithTwoSessions();
    const third = await login(user.email);
    const res = await api.delete('/sessions', { bearer: second.accessToken, query: { scope: 'others' } });
    expect(res.status).toBe(200);
    expect([...res.body.ended].sort()).toEqual([sidOf(first.accessToken), sidOf(third.accessToken)].sort());
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh(third.refreshToken)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(200);
  });

  it('when scope=all, then every session ends, the current one too', async () => {
    const { first, second } = await userWithTwoSessions();
    const res = await api.delete('/sessions', { bearer: second.accessToken, query: { scope: 'all' } });
    expect(res.body.ended).toHaveLength(2);
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(401);
  });

  it('when the scope is missing or unknown, then 400 and nothing ends', async () => {
    const { first, second } = await userWithTwoSessions();
    const res = await api.delete('/sessions', { bearer: second.accessToken, query: { scope: 'everything' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect((await refresh(first.refreshToken)).status).toBe(200);
  });
});

describe('logout, password change and reset', () => {
  it('when the user logs out, then every session ends', async () => {
    const { first, second } = await userWithTwoSessions();
    await api.post('/logout', { headers: project.headers, body: { refreshToken: first.refreshToken } });
    expect((await sessionsOf(second.accessToken)).body.sessions).toEqual([]);
  });

  it('when the password changes, then every other session ends and the current one keeps refreshing', async () => {
    const { user, first, second } = await userWithTwoSessions();
    const res = await api.post('/me/password', {
      bearer: second.accessToken,
      body: { currentPassword: PASSWORD, newPassword: 'a brand new password' },
    });
    expect(res.status).toBe(200);
    expect((await refresh(first.refreshToken)).status).toBe(401);
    const rotated = await refresh(second.refreshToken);
    expect(rotated.status).toBe(200);
    const ids = (await sessionsOf(rotated.body.accessToken)).body.sessions.map((s: { id: string }) => s.id);
    expect(ids).toEqual([sidOf(second.accessToken)]);
    const relogin = await api.post('/login', {
      headers: project.headers,
      body: { email: user.email, password: 'a brand new password' },
    });
    expect(relogin.status).toBe(200);
  });

  it('when the current password is wrong, then 401 INVALID_CREDENTIALS, the password stays and it counts toward the lockout', async () => {
    const { user, first, second } = await userWithTwoSessions();
    const res = await api.post('/me/password', {
      bearer: second.accessToken,
      body: { currentPassword: 'not the password', newPassword: 'a brand new password' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    expect((await refresh(first.refreshToken)).status).toBe(200);
    const failures = await svc.deps
      .db('login_failures')
      .where({ project_id: project.projectId })
      .select('failed_count');
    expect(failures.length).toBeGreaterThan(0);
    expect((await login(user.email)).accessToken).toEqual(expect.any(String));
  });

  it('when the new password is too short, then 400', async () => {
    const { accessToken } = await registerUser(api, project);
    const res = await api.post('/me/password', {
      bearer: accessToken,
      body: { currentPassword: PASSWORD, newPassword: 'short' },
    });
    expect(res.status).toBe(400);
  });

  it('when the password is reset, then every session ends', async () => {
    const { user, second } = await userWithTwoSessions();
    await api.post('/forgot-password', { headers: project.headers, body: { email: user.email } });
    const events = await outboxEvents<PasswordResetRequestedData>(
      svc.deps.db,
      project,
      AUTH_EVENTS.passwordResetRequested,
    );
    const token = tokenOf(events.filter((e) => e.data.userId === user.id).pop()!.data.link);
    await api.post('/reset-password', { headers: project.headers, body: { token, password: 'a reset password!' } });
    expect((await sessionsOf(second.accessToken)).body.sessions).toEqual([]);
  });
});

describe('GET /v1/sessions/{id} (liveness for a resource server)', () => {
  it('when the session is live, then 200; once ended, then 404 while the access token itself is still accepted', async () => {
    const { accessToken, refreshToken } = await registerUser(api, project);
    const sid = sidOf(accessToken);
    const live = await api.get(`/sessions/${sid}`, { bearer: accessToken });
    expect(live.status).toBe(200);
    expect(live.body.session).toMatchObject({ id: sid, current: true });
    await api.post('/logout', { headers: project.headers, body: { refreshToken } });
    expect((await api.get(`/sessions/${sid}`, { bearer: accessToken })).status).toBe(404);
    expect((await api.get('/me', { bearer: accessToken })).status).toBe(200);
  });
});

describe('keys side: /v1/users/{userId}/sessions', () => {
  it("when support lists and ends a user's sessions, then they see them all and ending one kills its refresh token", async () => {
    const { user, first, second } = await userWithTwoSessions();
    const list = await api.get(`/users/${user.id}/sessions`, { headers: project.headers });
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(2);
    expect(list.body.sessions.every((s: { current: boolean }) => !s.current)).toBe(true);

    const one = await api.get(`/users/${user.id}/sessions/${sidOf(first.accessToken)}`, { headers: project.headers });
    expect(one.body.session.id).toBe(sidOf(first.accessToken));
    const ended = await api.delete(`/users/${user.id}/sessions/${sidOf(first.accessToken)}`, {
      headers: project.headers,
    });
    expect(ended.status).toBe(200);
    expect((await refresh(first.refreshToken)).status).toBe(401);

    const all = await api.delete(`/users/${user.id}/sessions`, { headers: project.headers });
    expect(all.body.ended).toEqual([sidOf(second.accessToken)]);
    expect((await refresh(second.refreshToken)).status).toBe(401);
  });

  it("when another project's keys name the user or the session, then 404 and nothing ends", async () => {
    const { user, first } = await userWithTwoSessions();
    const other = await svc.createProject();
    expect((await api.get(`/users/${user.id}/sessions`, { headers: other.headers })).status).toBe(404);
    const sid = sidOf(first.accessToken);
    expect((await api.get(`/users/${user.id}/sessions/${sid}`, { headers: other.headers })).status).toBe(404);
    expect((await api.delete(`/users/${user.id}/sessions/${sid}`, { headers: other.headers })).status).toBe(404);
    expect((await api.delete(`/users/${user.id}/sessions`, { headers: other.headers })).status).toBe(404);
    expect((await refresh(first.refreshToken)).status).toBe(200);
  });

  it('when the session belongs to another user of the project, then 404', async () => {
    const alice = await registerUser(api, project);
    const bob = await registerUser(api, project);
    const res = await api.delete(`/users/${alice.user.id}/sessions/${sidOf(bob.accessToken)}`, {
      headers: project.headers,
    });
    expect(res.status).toBe(404);
    expect((await refresh(bob.refreshToken)).status).toBe(200);
  });

  it('when the keys are missing, then 401', async () => {
    const { user } = await registerUser(api, project);
    expect((await api.get(`/users/${user.id}/sessions`)).status).toBe(401);
    expect((await api.delete(`/users/${user.id}/sessions`)).status).toBe(401);
    expect((await api.get(`/users/${user.id}/sessions/${user.id}`)).status).toBe(401);
    expect((await api.delete(`/users/${user.id}/sessions/${user.id}`)).status).toBe(401);
  });
});
