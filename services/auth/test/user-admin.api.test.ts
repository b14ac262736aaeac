import { AUTH_EVENTS, type VerificationRequestedData } from '@platform/events';
import { describeMemberTokens, type TestProject, type TestService } from '@platform/testkit';
import { apiOf, outboxEvents, PASSWORD, registerUser, startAuth, tokenOf, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;
let other: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject({ appUrl: 'https://app.example.com' });
  other = await svc.createProject();
});
afterAll(() => svc.close());

let counter = 0;
const unique = (local: string) => `${local}.${Date.now().toString(36)}${++counter}@example.com`;
const list = (query: string, p: TestProject = project) => api.get(`/users${query}`, { headers: p.headers });
const user = (id: string, p: TestProject = project) => api.get(`/users/${id}`, { headers: p.headers });
const login = (email: string, p: TestProject = project) =>
  api.post('/login', { headers: p.headers, body: { email, password: PASSWORD } });

describe('listing and searching users', () => {
  it('when users are listed by an email prefix, then only that project’s users with that prefix come, page by page in email order', async () => {
    const stem = `zed${Date.now().toString(36)}`;
    const emails = [`${stem}b@example.com`, `${stem}a@example.com`, `${stem}c@example.com`];
    for (const email of emails) await registerUser(api, project, email);
    await registerUser(api, project, `y${stem}@example.com`);
    await registerUser(api, other, `${stem}a@example.com`);

    const first = await list(`?email=${stem.toUpperCase()}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.users.map((u: { email: string }) => u.email)).toEqual([...emails].sort().slice(0, 2));
    expect(first.body.users[0]).toMatchObject({ projectId: project.projectId, disabled: false, disabledAt: null });
    expect(first.body.nextCursor).toEqual(expect.any(String));

    const second = await list(`?email=${stem}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.users.map((u: { email: string }) => u.email)).toEqual([[...emails].sort()[2]]);
    expect(second.body.nextCursor).toBeNull();

    const elsewhere = await list(`?email=${stem}`, other);
    expect(elsewhere.body.users.map((u: { projectId: string }) => u.projectId)).toEqual([other.projectId]);
  });

  it('when the page size or the cursor is not acceptable, then it is 400 VALIDATION_ERROR', async () => {
    for (const query of ['?limit=101', '?limit=0', '?limit=x', '?cursor=%2F%2F%2F']) {
      const res = await list(query);
      expect({ query, status: res.status, code: res.body.error.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('when the keys are missing, then every user administration endpoint is 401', async () => {
    const { user: registered } = await registerUser(api, project, unique('nokeys'));
    const calls = [
      api.get('/users'),
      api.get(`/users/${registered.id}`),
      api.delete(`/users/${registered.id}`),
      api.post(`/users/${registered.id}/disable`),
      api.post(`/users/${registered.id}/enable`),
      api.post(`/users/${registered.id}/resend-verification`),
    ];
    for (const res of await Promise.all(calls)) expect(res.status).toBe(401);
  });
});

describe('one user', () => {
  it('when a user is read, then profile, metadata, verification and last login show; another project’s user is 404', async () => {
    const email = unique('reader');
    const registered = await api.post('/register', {
      headers: project.headers,
      body: { email, password: PASSWORD, metadata: { plan: 'pro' } },
    });
    expect((await login(email)).status).toBe(200);
    const res = await user(registered.body.user.id);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: registered.body.user.id,
      email,
      emailVerified: false,
      metadata: { plan: 'pro' },
      lastLogin: expect.any(String),
      disabled: false,
      disabledAt: null,
    });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    expect((await user(registered.body.user.id, other)).status).toBe(404);
    expect((await user('not-a-user')).status).toBe(404);
  });

  it('when a user is disabled, then login is 403, refresh is 401, and after enabling login works again', async () => {
    const email = unique('disabled');
    const { user: registered, refreshToken } = await registerUser(api, project, email);
    expect((await api.post(`/users/${registered.id}/disable`, { headers: other.headers })).status).toBe(404);

    const disabled = await api.post(`/users/${registered.id}/disable`, { headers: project.headers });
    expect(disabled.status).toBe(200);
    expect(disabled.body.user).toMatchObject({ disabled: true, disabledAt: expect.any(String) });
    const refused = await login(email);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await login(email, other)).status).toBe(401);
    const refreshed = await api.post('/refresh-token', { headers: project.headers, body: { refreshToken } });
    expect(refreshed.status).toBe(401);

    const enabled = await api.post(`/users/${registered.id}/enable`, { headers: project.headers });
    expect(enabled.status).toBe(200);
    expect(enabled.body.user).toMatchObject({ disabled: false, disabledAt: null });
    expect((await login(email)).status).toBe(200);
    expect((await api.post('/users/not-a-user/enable', { headers: project.headers })).status).toBe(404);
  });

  it('when a user is deleted, then it is gone from reads and login, and another project cannot delete it', async () => {
    const email = unique('deleted');
    const { user: registered } = await registerUser(api, project, email);
    expect((await api.delete(`/users/${registered.id}`, { headers: other.headers })).status).toBe(404);
    expect((await user(registered.id)).status).toBe(200);

    expect((await api.delete(`/users/${registered.id}`, { headers: project.headers })).status).toBe(204);
    expect((await user(registered.id)).status).toBe(404);
    expect((await login(email)).status).toBe(401);
    expect((await api.delete(`/users/${registered.id}`, { headers: project.headers })).status).toBe(404);
    expect(await svc.deps.db('refresh_tokens').where({ user_id: registered.id }).first()).toBeUndefined();
  });

  it('when verification is resent, then a new link is written; once verified it is 400; another project’s user is 404', async () => {
    const { user: registered } = await registerUser(api, project, unique('resend'));
    expect((await api.post(`/users/${registered.id}/resend-verification`, { headers: other.headers })).status).toBe(
      404,
    );
    const sent = await api.post(`/users/${registered.id}/resend-verification`, { headers: project.headers });
    expect(sent.status).toBe(200);
    const events = await outboxEvents<VerificationRequestedData>(
      svc.deps.db,
      project,
      AUTH_EVENTS.verificationRequested,
    );
    const link = events.filter((e) => e.data.userId === registered.id).pop()!.data.link;
    expect(link).toMatch(/^https:\/\/app\.example\.com\/verify-email\?token=/);

    expect((await api.post('/verify-email', { body: { token: tokenOf(link) } })).status).toBe(200);
    const again = await api.post(`/users/${registered.id}/resend-verification`, { headers: project.headers });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describeMemberTokens({
  service: 'auth',
  start: () => startAuth(),
  write: (marker) => ({
    method: 'post',
    path: '/v1/register',
    body: { email: `${marker}@example.com`, password: PASSWORD },
  }),
  writeStatus: 201,
  writeRoute: '/v1/register',
  read: (marker) => `/v1/users?email=${marker}`,
});
