import { AUTH_EVENTS, type UserRegisteredData, type VerificationRequestedData } from '@platform/events';
import type { TestProject, TestService } from '@platform/testkit';
import {
  apiOf,
  outboxEvents,
  registerUser,
  startAuth,
  tokenOf,
  uniqueEmail,
  type Api,
} from './support/auth-test-service';

let svc: TestService;
let api: Api;
let verifying: TestProject;
let open: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  verifying = await svc.createProject({ requireEmailVerification: true, appUrl: 'https://verify.example.com' });
  open = await svc.createProject();
});
afterAll(() => svc.close());

const verify = (token: unknown, headers?: Record<string, string>) =>
  api.post('/verify-email', { headers, body: { token } });
const resend = (email: string, p: TestProject = verifying) =>
  api.post('/resend-verification', { headers: p.headers, body: { email } });
const me = (accessToken: string) => api.get('/me', { bearer: accessToken });

async function registeredEvent(p: TestProject, userId: string) {
  const events = await outboxEvents<UserRegisteredData>(svc.deps.db, p, AUTH_EVENTS.userRegistered);
  return events.find((e) => e.data.userId === userId)!;
}

async function latestVerificationLink(p: TestProject, userId: string): Promise<string> {
  const events = await outboxEvents<VerificationRequestedData>(svc.deps.db, p, AUTH_EVENTS.verificationRequested);
  return events.filter((e) => e.data.userId === userId).pop()!.data.link;
}

describe('registration events', () => {
  it('when the project requires verification, then auth.user.registered carries a 24-hour verification link', async () => {
    const { user } = await registerUser(api, verifying);
    const event = await registeredEvent(verifying, user.id);
    expect(event).toMatchObject({
      type: 'auth.user.registered',
      tenantId: verifying.tenantId,
      projectId: verifying.projectId,
    });
    expect(event.data).toEqual({
      userId: user.id,
      email: user.email,
      verification: {
        link: expect.stringMatching(/^https:\/\/verify\.example\.com\/verify-email\?token=[A-Za-z0-9_-]+$/),
        expiresAt: expect.any(String),
      },
    });
    const ttl = Date.parse(event.data.verification!.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('when the project does not require verification, then auth.user.registered has no verification', async () => {
    const { user } = await registerUser(api, open);
    const event = await registeredEvent(open, user.id);
    expect(event.data).toEqual({ userId: user.id, email: user.email });
  });

  it('when registration fails, then no event is written', async () => {
    const email = uniqueEmail('dup');
    await registerUser(api, open, email);
    await api.post('/register', { headers: open.headers, body: { email, password: 'another password' } });
    const events = await outboxEvents<UserRegisteredData>(svc.deps.db, open, AUTH_EVENTS.userRegistered);
    expect(events.filter((e) => e.data.email === email)).toHaveLength(1);
  });
});

describe('POST /v1/verify-email', () => {
  it('when the body is larger than a token needs (over 4 KB), then 413 before it is parsed', async () => {
    const res = await verify('x'.repeat(5_000));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('when the token from the registration email is sent without any headers, then 200 and emailVerified becomes true', async () => {
    const session = await registerUser(api, verifying);
    const token = tokenOf((await registeredEvent(verifying, session.user.id)).data.verification!.link);
    expect((await me(session.accessToken)).body.user.emailVerified).toBe(false);
    const res = await verify(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await me(session.accessToken)).body.user.emailVerified).toBe(true);
  });

  it('when the token was already used, then 400', async () => {
    const { user } = await registerUser(api, verifying);
    const token = tokenOf((await registeredEvent(verifying, user.id)).data.verification!.link);
    expect((await verify(token)).status).toBe(200);
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the token is older than 24 hours, then 400 and the email stays unverified', async () => {
    const session = await registerUser(api, verifying);
    const token = tokenOf((await registeredEvent(verifying, session.user.id)).data.verification!.link);
    await svc.deps
      .db('account_tokens')
      .where({ user_id: session.user.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await verify(token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect((await me(session.accessToken)).body.user.emailVerified).toBe(false);
  });

  it.each([
    ['unknown', 'no-such-token'],
    ['missing', undefined],
  ])('when the token is %s, then 400', async (_case, token) => {
    expect((await verify(token)).status).toBe(400);
  });

  it("when another project's keys come with the token, then 400 and nothing is verified", async () => {
    const session = await registerUser(api, verifying);
    const token = tokenOf((await registeredEvent(verifying, session.user.id)).data.verification!.link);
    expect((await verify(token, open.headers)).status).toBe(400);
    expect((await me(session.accessToken)).body.user.emailVerified).toBe(false);
    expect((await verify(token, verifying.headers)).status).toBe(200);
  });

  it('when invalid keys come with the token, then 401', async () => {
    const res = await verify('whatever', { ...open.headers, 'x-secret-key': 'sk_wrong' });
    expect(res.status).toBe(401);
  });
});

describe('POST /v1/resend-verification', () => {
  it('when the email is unverified, then 200, auth.verification.requested is written and only the new link works', async () => {
    const session = await registerUser(api, verifying);
    const first = tokenOf((await registeredEvent(verifying, session.user.id)).data.verification!.link);
    const res = await resend(session.user.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    const events = await outboxEvents<VerificationRequestedData>(
      svc.deps.db,
      verifying,
      AUTH_EVENTS.verificationRequested,
    );
    const event = events.find((e) => e.data.userId === session.user.id)!;
    expect(event.data).toEqual({
      userId: session.user.id,
      email: session.user.email,
      link: expect.stringMatching(/^https:\/\/verify\.example\.com\/verify-email\?token=/),
      expiresAt: expect.any(String),
    });
    expect((await verify(first)).status).toBe(400);
    expect((await verify(tokenOf(event.data.link))).status).toBe(200);
  });

  it('when the project does not require verification, then resending still gives a working link', async () => {
    const session = await registerUser(api, open);
    expect((await resend(session.user.email, open)).status).toBe(200);
    expect((await verify(tokenOf(await latestVerificationLink(open, session.user.id)))).status).toBe(200);
    expect((await me(session.accessToken)).body.user.emailVerified).toBe(true);
  });

  it('when the email is already verified, then 400', async () => {
    const session = await registerUser(api, open);
    await resend(session.user.email, open);
    await verify(tokenOf(await latestVerificationLink(open, session.user.id)));
    const res = await resend(session.user.email, open);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the email is unknown, then 400', async () => {
    const res = await resend(uniqueEmail('nobody'));
    expect(res.status).toBe(400);
  });

  it('when the key headers are missing, then 401', async () => {
    expect((await api.post('/resend-verification', { body: { email: uniqueEmail() } })).status).toBe(401);
  });
});
