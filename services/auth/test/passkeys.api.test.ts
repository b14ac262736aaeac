import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import type { Page } from 'playwright-core';
import { launchBrowser, type TestProject, type TestService } from '@platform/testkit';
import { apiOf, registerUser, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

/**
 * Passkeys end to end: Chromium with a CDP virtual authenticator runs navigator.credentials on a
 * page of the test's own, with the options our endpoints give; the test posts the results back.
 */
const PAGE = `<!doctype html><html><body><script>
const toBytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
const toB64u = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const withIds = (list) => (list || []).map((c) => ({ ...c, id: toBytes(c.id) }));
window.register = async (o) => {
  const cred = await navigator.credentials.create({ publicKey: {
    ...o, challenge: toBytes(o.challenge), user: { ...o.user, id: toBytes(o.user.id) }, excludeCredentials: withIds(o.excludeCredentials),
  } });
  return { id: cred.id, rawId: toB64u(cred.rawId), type: cred.type, clientExtensionResults: cred.getClientExtensionResults(),
    response: { clientDataJSON: toB64u(cred.response.clientDataJSON), attestationObject: toB64u(cred.response.attestationObject),
      transports: cred.response.getTransports() } };
};
window.signIn = async (o) => {
  const cred = await navigator.credentials.get({ publicKey: { ...o, challenge: toBytes(o.challenge), allowCredentials: withIds(o.allowCredentials) } });
  const r = cred.response;
  return { id: cred.id, rawId: toB64u(cred.rawId), type: cred.type, clientExtensionResults: cred.getClientExtensionResults(),
    response: { clientDataJSON: toB64u(r.clientDataJSON), authenticatorData: toB64u(r.authenticatorData),
      signature: toB64u(r.signature), userHandle: r.userHandle ? toB64u(r.userHandle) : undefined } };
};
</script></body></html>`;

function servePage(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ origin: `http://localhost:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

let svc: TestService;
let api: Api;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let home: { origin: string; server: Server };
let elsewhere: { origin: string; server: Server };
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  [home, elsewhere] = await Promise.all([servePage(), servePage()]);
  project = await svc.createProject({ appUrl: home.origin });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
});
afterAll(async () => {
  await browser?.close();
  home?.server.close();
  elsewhere?.server.close();
  await svc?.close();
});

const bearer = (project: TestProject, token: string) => ({ ...project.headers, Authorization: `Bearer ${token}` });

async function onPage<T>(origin: string, fn: 'register' | 'signIn', options: unknown): Promise<T> {
  if (!page.url().startsWith(origin)) await page.goto(`${origin}/`);
  return page.evaluate(
    ([name, opts]) => (globalThis as unknown as Record<string, (o: unknown) => Promise<T>>)[name](opts),
    [fn, options] as const,
  );
}

async function registerPasskey(origin: string, token: string, name?: string) {
  const options = await api.post('/passkeys/registration/options', { headers: bearer(project, token) });
  expect(options.status).toBe(200);
  const response = await onPage(origin, 'register', options.body.options);
  return api.post('/passkeys/registration/verify', {
    headers: bearer(project, token),
    body: { challengeId: options.body.challengeId, response, ...(name ? { name } : {}) },
  });
}

async function signIn(origin: string, email?: string) {
  const options = await api.post('/passkeys/authentication/options', {
    headers: project.headers,
    body: email ? { email } : {},
  });
  expect(options.status).toBe(200);
  const response = await onPage(origin, 'signIn', options.body.options);
  const body = { challengeId: options.body.challengeId, response };
  return { body, res: await api.post('/passkeys/authentication/verify', { headers: project.headers, body }) };
}

async function eventsOf(userId: string, type: string) {
  const res = await api.get(`/users/${userId}/events?type=${type}`, { headers: project.headers });
  return res.body.events as { type: string; data: Record<string, unknown> }[];
}

describe('passkeys in Chromium with a virtual authenticator', () => {
  let alice: Awaited<ReturnType<typeof registerUser>>;
  let passkeyId: string;

  it('when a signed-in user registers a passkey, then it is stored with its flags and passkey_added is recorded', async () => {
    alice = await registerUser(api, project);
    const res = await registerPasskey(home.origin, alice.accessToken, 'Laptop');
    expect(res.status).toBe(201);
    expect(res.body.passkey).toMatchObject({ name: 'Laptop', backedUp: false, deviceType: 'singleDevice' });
    passkeyId = res.body.passkey.id;
    const list = await api.get('/passkeys', { headers: bearer(project, alice.accessToken) });
    expect(list.body.passkeys.map((p: { id: string }) => p.id)).toEqual([passkeyId]);
    expect(await eventsOf(alice.user.id, 'passkey_added')).toEqual([expect.objectContaining({ data: { passkeyId } })]);
  });

  it('when signing in without typing an email, then the passkey gives a new aal2 session and its sign count is kept', async () => {
    const before = await svc.deps.db('passkeys').where({ id: passkeyId }).first('sign_count');
    const { res } = await signIn(home.origin);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(alice.user.id);
    const claims = jwt.decode(res.body.accessToken) as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: alice.user.id, aal: 'aal2' });
    const sessions = await api.get('/sessions', { headers: bearer(project, res.body.accessToken) });
    expect(sessions.body.sessions).toContainEqual(
      expect.objectContaining({ id: claims.sid, method: 'passkey', aal: 'aal2', current: true }),
    );
    const after = await svc.deps.db('passkeys').where({ id: passkeyId }).first('sign_count', 'last_used_at');
    expect(Number(after.sign_count)).toBeGreaterThan(Number(before.sign_count));
    expect(after.last_used_at).not.toBeNull();
  });

  it('when the same challenge is sent again, then it is refused (single use)', async () => {
    const { body, res } = await signIn(home.origin, alice.user.email);
    expect(res.status).toBe(200);
    const again = await api.post('/passkeys/authentication/verify', { headers: project.headers, body });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it("when another project's keys verify the assertion, then the credential is unknown there (401)", async () => {
    const other = await svc.createProject({ appUrl: home.origin });
    const options = await api.post('/passkeys/authentication/options', { headers: other.headers, body: {} });
    const response = await onPage(home.origin, 'signIn', options.body.options);
    const res = await api.post('/passkeys/authentication/verify', {
      headers: other.headers,
      body: { challengeId: options.body.challengeId, response },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('when a page on an origin the project does not allow registers, then the passkey is refused (400)', async () => {
    const bob = await registerUser(api, project);
    const res = await registerPasskey(elsewhere.origin, bob.accessToken);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(await svc.deps.db('passkeys').where({ user_id: bob.user.id })).toEqual([]);
  });

  it('when a page on an origin the project does not allow signs in, then it is refused (401) and recorded', async () => {
    const { res } = await signIn(elsewhere.origin, alice.user.email);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_CREDENTIALS' } });
    expect(await eventsOf(alice.user.id, 'sign_in_failed')).toEqual([
      expect.objectContaining({ data: { reason: 'passkey_invalid', passkeyId } }),
    ]);
  });

  it('when the origin is one of allowedOrigins, then registration from it is accepted', async () => {
    const spread = await svc.createProject({ appUrl: `http://localhost:1`, allowedOrigins: [elsewhere.origin] });
    const carol = await registerUser(api, spread);
    const options = await api.post('/passkeys/registration/options', { headers: bearer(spread, carol.accessToken) });
    expect(options.body.options.rp.id).toBe('localhost');
    const response = await onPage(elsewhere.origin, 'register', options.body.options);
    const res = await api.post('/passkeys/registration/verify', {
      headers: bearer(spread, carol.accessToken),
      body: { challengeId: options.body.challengeId, response },
    });
    expect(res.status).toBe(201);
  });

  it('when the passkey is renamed and deleted, then another user cannot touch it and passkey_removed is recorded', async () => {
    const dave = await registerUser(api, project);
    const headers = bearer(project, alice.accessToken);
    expect(
      (await api.patch(`/passkeys/${passkeyId}`, { headers: bearer(project, dave.accessToken), body: { name: 'x' } }))
        .status,
    ).toBe(404);
    expect((await api.delete(`/passkeys/${passkeyId}`, { headers: bearer(project, dave.accessToken) })).status).toBe(
      404,
    );
    const renamed = await api.patch(`/passkeys/${passkeyId}`, { headers, body: { name: 'Work laptop' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.passkey.name).toBe('Work laptop');
    expect((await api.patch(`/passkeys/${passkeyId}`, { headers, body: { name: '' } })).status).toBe(400);
    const removed = await api.delete(`/passkeys/${passkeyId}`, { headers });
    expect(removed.status).toBe(200);
    expect((await api.get('/passkeys', { headers })).body.passkeys).toEqual([]);
    expect(await eventsOf(alice.user.id, 'passkey_removed')).toEqual([
      expect.objectContaining({ data: { passkeyId } }),
    ]);
    const { res } = await signIn(home.origin, alice.user.email);
    expect(res.status).toBe(401);
  });
});

describe('passkey endpoints without credentials or with bad input', () => {
  it('when called without a bearer token or keys, then 401', async () => {
    expect((await api.post('/passkeys/registration/options', { headers: project.headers })).status).toBe(401);
    expect((await api.post('/passkeys/registration/verify', { headers: project.headers, body: {} })).status).toBe(401);
    expect((await api.get('/passkeys')).status).toBe(401);
    expect((await api.patch('/passkeys/x', { body: { name: 'y' } })).status).toBe(401);
    expect((await api.delete('/passkeys/x')).status).toBe(401);
    expect((await api.post('/passkeys/authentication/options', { body: {} })).status).toBe(401);
  });

  it('when the email or credential is malformed, then 400 in the envelope', async () => {
    const bad = await api.post('/passkeys/authentication/options', {
      headers: project.headers,
      body: { email: 'not-an-email' },
    });
    expect(bad.status).toBe(400);
    const user = await registerUser(api, project, uniqueEmail('frank'));
    const res = await api.post('/passkeys/registration/verify', {
      headers: bearer(project, user.accessToken),
      body: { challengeId: 'nope', response: { id: 'a' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});
