import { AUTH_EVENTS, type PasswordResetRequestedData } from '@platform/events';
import type { TestProject, TestService } from '@platform/testkit';
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

let svc: TestService;
let api: Api;
let project: TestProject;
const APP_URL = 'https://app.example.com';

beforeAll(async () => {
  svc = await startAuth({ APP_URL: 'https://default.example.org' });
  api = apiOf(svc.app);
  project = await svc.createProject({ appUrl: `${APP_URL}/` });
});
afterAll(() => svc.close());

const forgot = (email: string, p: TestProject = project) =>
  api.post('/forgot-password', { headers: p.headers, body: { email } });
const reset = (token: string, password = 'a brand new password', p: TestProject = project) =>
  api.post('/reset-password', { headers: p.headers, body: { token, password } });
const login = (email: string, password: string) =>
  api.post('/login', { headers: project.headers, body: { email, password } });

/** Asks for a reset and returns the token from the event written for the Mailer. */
async function resetTokenFor(email: string, p: TestProject = project): Promise<string> {
  await forgot(email, p);
  const events = await outboxEvents<PasswordResetRequestedData>(svc.deps.db, p, AUTH_EVENTS.passwordResetRequested);
  const mine = events.filter((e) => e.data.email === email.toLowerCase());
  return tokenOf(mine[mine.length - 1].data.link);
}

describe('POST /v1/forgot-password', () => {
  it('when the email exists or not, then the same 200 answer', async () => {
    const { user } = await registerUser(api, project);
    const known = await forgot(user.email);
    const unknown = await forgot(uniqueEmail('nobody'));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body).toEqual({ success: true, message: expect.any(String) });
  });

  it('when the email exists, then auth.password-reset.requested is in the outbox with a link to the project app valid 1 hour', async () => {
    const { user } = await registerUser(api, project);
    await forgot(user.email.toUpperCase());
    const events = await outboxEvents<PasswordResetRequestedData>(
      svc.deps.db,
      project,
      AUTH_EVENTS.passwordResetRequested,
    );
    const event = events.find((e) => e.data.userId === user.id)!;
    expect(event).toMatchObject({
      type: 'auth.password-reset.requested',
      tenantId: project.tenantId,
      projectId: project.projectId,
      version: 1,
    });
    expect(event.data).toEqual({
      userId: user.id,
      email: user.email,
      link: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(event.data.link).toMatch(new RegExp(`^${APP_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    const ttl = Date.parse(event.data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
  });

  it('when the email is unknown, then no event is written', async () => {
    const email = uniqueEmail('ghost');
    await forgot(email);
    const events = await outboxEvents<PasswordResetRequestedData>(
      svc.deps.db,
      project,
      AUTH_EVENTS.passwordResetRequested,
    );
    expect(events.filter((e) => e.data.email === email)).toHaveLength(0);
  });

  it('when the token is stored, then only its hash is in the database', async () => {
    const { user } = await registerUser(api, project);
    const token = await resetTokenFor(user.email);
    const rows = await svc.deps.db('account_tokens').where({ user_id: user.id }).select('token_hash');
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('when the email is invalid, then 400', async () => {
    expect((await forgot('nope')).status).toBe(400);
  });
});

describe('POST /v1/reset-password', () => {
  it('when the token is valid, then the password changes, the old one stops working and every refresh token dies', async () => {
    const session = await registerUser(api, project);
    const token = await resetTokenFor(session.user.email);
    const res = await reset(token, 'a brand new password');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await login(session.user.email, PASSWORD)).status).toBe(401);
    expect((await login(session.user.email, 'a brand new password')).status).toBe(200);
    const refreshed = await api.post('/refresh-token', {
      headers: project.headers,
      body: { refreshToken: session.refreshToken },
    });
    expect(refreshed.status).toBe(401);
    expect(refreshed.body.error.code).toBe('INVALID_SESSION');
  });

  it('when the token was already used, then 400', async () => {
    const { user } = await registerUser(api, project);
    const token = await resetTokenFor(user.email);
    expect((await reset(token)).status).toBe(200);
    const again = await reset(token, 'yet another password');
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the token is older than 1 hour, then 410 TOKEN_EXPIRED and the password is unchanged', async () => {
    const { user } = await registerUser(api, project);
    const token = await resetTokenFor(user.email);
    await svc.deps
      .db('account_tokens')
      .where({ user_id: user.id, purpose: 'reset_password' })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await reset(token);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('TOKEN_EXPIRED');
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it('when the token is unknown, then 400', async () => {
    const res = await reset('not-a-token');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when a newer reset was requested, then the earlier link no longer works', async () => {
    const { user } = await registerUser(api, project);
    const first = await resetTokenFor(user.email);
    const second = await resetTokenFor(user.email);
    expect((await reset(first)).status).toBe(400);
    expect((await reset(second)).status).toBe(200);
  });

  it('when the new password is too short or too long, then 400 and the token stays usable', async () => {
    const { user } = await registerUser(api, project);
    const token = await resetTokenFor(user.email);
    expect((await reset(token, 'short')).status).toBe(400);
    expect((await reset(token, 'x'.repeat(73))).status).toBe(400);
    expect((await reset(token, 'long enough now')).status).toBe(200);
  });

  it('when the account was locked, then a reset lifts the lock', async () => {
    const { user } = await registerUser(api, project);
    for (let i = 0; i < 5; i++) await login(user.email, 'wrong password');
    expect((await login(user.email, PASSWORD)).status).toBe(423);
    await reset(await resetTokenFor(user.email), 'unlocked password');
    expect((await login(user.email, 'unlocked password')).status).toBe(200);
  });

  it("when project A's reset token comes with project B's keys, then 400 and A's password is unchanged", async () => {
    const other = await svc.createProject();
    const { user } = await registerUser(api, project);
    const token = await resetTokenFor(user.email);
    expect((await reset(token, 'hijacked password', other)).status).toBe(400);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it('when the project has no appUrl, then the link uses APP_URL', async () => {
    const plain = await svc.createProject();
    const { user } = await registerUser(api, plain);
    await forgot(user.email, plain);
    const [event] = await outboxEvents<PasswordResetRequestedData>(
      svc.deps.db,
      plain,
      AUTH_EVENTS.passwordResetRequested,
    );
    expect(event.data.link).toMatch(/^https:\/\/default\.example\.org\/reset-password\?token=/);
  });
});

describe('keys', () => {
  it.each([
    ['/forgot-password', { email: 'someone@example.com' }],
    ['/reset-password', { token: 'any token', password: 'a brand new password' }],
  ])('when %s is called without the key headers, then 401 UNAUTHORIZED and nothing is sent', async (path, body) => {
    const before = await outboxEvents(svc.deps.db, project);
    const res = await api.post(path, { body });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect(await outboxEvents(svc.deps.db, project)).toHaveLength(before.length);
  });
});
