import jwt from 'jsonwebtoken';
import { AUTH_EVENTS, type SignInEmailData } from '@platform/events';
import type { TestProject, TestService } from '@platform/testkit';
import type { AuthShared } from '../src';
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
let other: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject();
  other = await svc.createProject();
});
afterEach(() => {
  svc.parts.shared.issuer.clock.now = () => Date.now();
});
afterAll(() => svc.close());

const claimsOf = (token: string) => jwt.decode(token) as Record<string, unknown>;
const requestCode = (email: string, p = project) => api.post('/otp', { headers: p.headers, body: { email } });
const verify = (body: Record<string, string>, p = project) => api.post('/otp/verify', { headers: p.headers, body });

/** The newest sign-in e-mail Authentication asked the Mailer to send to `email`. */
async function mailTo(email: string, p = project): Promise<SignInEmailData> {
  const events = await outboxEvents<SignInEmailData>(svc.deps.db, p, AUTH_EVENTS.signInRequested);
  const mine = events.filter((e) => e.data.email === email);
  if (!mine.length) throw new Error(`no sign-in e-mail to ${email}`);
  return mine[mine.length - 1].data;
}

const mailsTo = async (email: string, p = project) =>
  (await outboxEvents<SignInEmailData>(svc.deps.db, p, AUTH_EVENTS.signInRequested)).filter(
    (e) => e.data.email === email,
  ).length;

const typesOf = async (userId: string) =>
  (await api.get(`/users/${userId}/events`, { headers: project.headers })).body.events.map(
    (e: { type: string; data: Record<string, unknown> }) => [e.type, e.data],
  );

describe('POST /v1/otp and /v1/otp/verify', () => {
  it('when a new address signs in with the code, then the account is created with its e-mail verified', async () => {
    const email = uniqueEmail('code');
    const sent = await requestCode(email);
    expect(sent.status).toBe(200);
    const mail = await mailTo(email);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.link).toMatch(/\/sign-in\?token=/);
    expect(new Date(mail.expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    // Only hashes are stored.
    const row = await svc.deps.db('email_sign_ins').where({ project_id: project.projectId, email }).first();
    expect(JSON.stringify(row)).not.toContain(mail.code);
    expect(JSON.stringify(row)).not.toContain(tokenOf(mail.link));

    const res = await verify({ email, code: mail.code });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email, emailVerified: true, isAnonymous: false });
    expect(claimsOf(res.body.accessToken)).toMatchObject({ sub: res.body.user.id, aal: 'aal1', email });
    const sessions = await api.get('/sessions', { bearer: res.body.accessToken });
    expect(sessions.body.sessions[0]).toMatchObject({ method: 'email_code' });
    expect(await typesOf(res.body.user.id)).toEqual([['sign_up', { method: 'email_code' }]]);
    const sentEvents = await api.get('/events', { headers: project.headers, query: { type: 'sign_in_code_sent' } });
    expect(sentEvents.body.events.length).toBeGreaterThan(0);

    const again = await verify({ email, code: mail.code });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('when an existing user opens the link, then they are signed in to the same account, once', async () => {
    const { user } = await registerUser(api, project);
    await requestCode(user.email);
    const { link, userId } = await mailTo(user.email);
    expect(userId).toBe(user.id);
    const res = await verify({ token: tokenOf(link) });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, emailVerified: true });
    expect((await typesOf(user.id))[0]).toEqual(['sign_in', { method: 'email_code', aal: 'aal1', via: 'link' }]);
    expect((await verify({ token: tokenOf(link) })).status).toBe(401);
  });

  it('when a newer code is sent, then the older one no longer works', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const first = await mailTo(email);
    await requestCode(email);
    const second = await mailTo(email);
    expect((await verify({ token: tokenOf(first.link) })).status).toBe(401);
    expect((await verify({ email, code: second.code })).status).toBe(200);
  });

  it('when ten minutes have passed, then neither the link nor the code works', async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const mail = await mailTo(email);
    const sentAt = Date.now();
    svc.parts.shared.issuer.clock.now = () => sentAt + 10 * 60_000 + 1_000;
    expect((await verify({ token: tokenOf(mail.link) })).status).toBe(401);
    expect((await verify({ email, code: mail.code })).status).toBe(401);
    svc.parts.shared.issuer.clock.now = () => sentAt + 9 * 60_000;
    expect((await verify({ email, code: mail.code })).status).toBe(200);
  });

  it('when the project does not allow sign-up by e-mail, then an unknown address gets the same answer and no e-mail', async () => {
    const closed = await svc.createProject({ emailSignUp: false });
    const { user } = await registerUser(api, closed);
    const unknown = uniqueEmail('nobody');
    const known = await requestCode(user.email, closed);
    const missing = await requestCode(unknown, closed);
    expect(missing.status).toBe(known.status);
    expect(missing.body).toEqual(known.body);
    expect(await mailsTo(user.email, closed)).toBe(1);
    expect(await mailsTo(unknown, closed)).toBe(0);
  });

  it('when five wrong codes are sent, then the e-mail is locked, even for the right code, and the trail says so', async () => {
    const { user } = await registerUser(api, project);
    await requestCode(user.email);
    const { code } = await mailTo(user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await verify({ email: user.email, code: wrong })).status).toBe(401);
    const locked = await verify({ email: user.email, code });
    expect(locked.status).toBe(423);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The password path shares the lock.
    const login = await api.post('/login', {
      headers: project.headers,
      body: { email: user.email, password: PASSWORD },
    });
    expect(login.status).toBe(423);
    const types = (await typesOf(user.id)).map(([type]: [string]) => type);
    // Five wrong codes, the right code while locked, the password while locked.
    expect(types.filter((t: string) => t === 'sign_in_failed')).toHaveLength(7);
    expect(types).toContain('lockout');
  });

  it("when another project's keys present the link or code, then 401 and nothing is used up", async () => {
    const email = uniqueEmail();
    await requestCode(email);
    const mail = await mailTo(email);
    expect((await verify({ token: tokenOf(mail.link) }, other)).status).toBe(401);
    expect((await verify({ email, code: mail.code }, other)).status).toBe(401);
    expect((await verify({ email, code: mail.code })).status).toBe(200);
  });

  it('when the body is neither a token nor an e-mail with six digits, then 400', async () => {
    expect((await verify({ email: uniqueEmail(), code: '12345' })).status).toBe(400);
    expect((await verify({ token: 'x', code: '123456' })).status).toBe(400);
    expect((await requestCode('not-an-email')).status).toBe(400);
  });
});

describe('rate limits of /v1/otp', () => {
  let limited: TestService<AuthShared>;
  let limitedApi: Api;
  beforeAll(async () => {
    limited = await startAuth({ AUTH_RATE_LIMIT_PER_EMAIL: '2', AUTH_RATE_LIMIT_PER_IP: '4' });
    limitedApi = apiOf(limited.app);
  });
  afterAll(() => limited.close());

  it('when one e-mail is asked for too often, then 429 for it, while another project is unaffected', async () => {
    const p = await limited.createProject();
    const q = await limited.createProject();
    const email = uniqueEmail();
    const send = (to: TestProject, address = email) =>
      limitedApi.post('/otp', { headers: to.headers, body: { email: address } });
    expect((await send(p)).status).toBe(200);
    expect((await send(p)).status).toBe(200);
    const refused = await send(p);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await send(q)).status).toBe(200);
    // Per address: two more e-mails from the same client reach the per-IP limit of 4.
    expect((await send(p, uniqueEmail())).status).toBe(200);
    expect((await send(p, uniqueEmail())).status).toBe(429);
  });
});

describe('requests e-mail sign-in refuses', () => {
  it('when keys are missing, then 401; when the user is disabled, then the right code is 403', async () => {
    expect((await api.post('/otp', { body: { email: uniqueEmail() } })).status).toBe(401);
    const { user } = await registerUser(api, project);
    await requestCode(user.email);
    const { code } = await mailTo(user.email);
    await api.post(`/users/${user.id}/disable`, { headers: project.headers });
    const res = await verify({ email: user.email, code });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });
});
