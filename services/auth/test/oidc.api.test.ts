import { createHash, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { TestProject, TestService } from '@platform/testkit';
import type { AuthShared } from '../src';
import { apiOf, PASSWORD, registerUser, startAuth, uniqueEmail, type Api } from './support/auth-test-service';
import { formOf, HttpBrowser } from './support/oidc-browser';
import { startTestIssuer, type TestIssuer } from './support/oidc-issuer';

const SERVICE = 'http://auth.test';
const CALLBACK = `${SERVICE}/v1/callback`;
const APP = 'https://app.example.com/auth/done';

let svc: TestService<AuthShared>;
let api: Api;
let issuer: TestIssuer;
let project: TestProject;
let other: TestProject;

const accounts = {
  alice: { email: 'alice@idp.test', email_verified: true },
  bob: { email: 'bob@idp.test', email_verified: true },
  mallory: { email: 'mallory@idp.test', email_verified: false },
  carol: { email: 'carol@idp.test', email_verified: true },
  dave: { email: 'dave@idp.test', email_verified: true },
  erin: { email: 'erin@idp.test', email_verified: true },
  frank: { email: 'frank@idp.test', email_verified: true },
};

beforeAll(async () => {
  issuer = await startTestIssuer({
    clients: [{ client_id: 'app-client', client_secret: 'app-secret', redirect_uris: [CALLBACK] }],
    accounts,
  });
  svc = await startAuth({ AUTH_PUBLIC_URL: SERVICE, AUTH_OIDC_ALLOWED_HOSTS: '127.0.0.1' });
  api = apiOf(svc.app);
  project = await svc.createProject({ allowedRedirectUrls: [APP], anonymousSignIn: true });
  other = await svc.createProject({ allowedRedirectUrls: [APP] });
  const created = await api.post('/oidc/providers', {
    headers: project.headers,
    body: { name: 'idp', issuer: issuer.issuer, clientId: 'app-client', clientSecret: 'app-secret' },
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await svc?.close();
  await issuer?.close();
});

const claimsOf = (token: string) => jwt.decode(token) as Record<string, unknown>;

/** The app's side of PKCE. */
function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const authorizeUrl = (p: TestProject, challenge: string, redirectTo = APP, provider = 'idp') =>
  `${SERVICE}/v1/authorize?${new URLSearchParams({
    api_key: p.apiKey,
    provider,
    redirect_to: redirectTo,
    code_challenge: challenge,
  }).toString()}`;

/**
 * Drives a browser from `start` through the provider's login (as `sub`) and consent to the app's
 * redirect URL; `atCallback` may rewrite the provider's redirect to our callback, `decline`
 * aborts at the provider.
 */
async function throughProvider(
  start: string,
  sub: string,
  options: { atCallback?: (url: string) => string | Promise<string>; decline?: boolean; browser?: HttpBrowser } = {},
): Promise<URL> {
  const browser = options.browser ?? new HttpBrowser(svc.app, SERVICE);
  const stop = (url: string) => url.startsWith(APP) || url.startsWith(CALLBACK);
  let { url, page } = await browser.follow(start, stop);
  while (page) {
    if (page.status !== 200) throw new Error(`provider answered ${page.status} at ${url}: ${page.body.slice(0, 300)}`);
    if (options.decline) {
      ({ url, page } = await browser.follow(`${url}/abort`, stop));
      continue;
    }
    const form = formOf(page.body, url);
    const answer = await browser.request(form.action, {
      method: 'POST',
      form: { ...form.fields, login: sub, password: 'any' },
    });
    ({ url, page } = await browser.follow(answer.location!, stop));
  }
  if (url.startsWith(CALLBACK)) {
    ({ url } = await browser.follow(options.atCallback ? await options.atCallback(url) : url, (u) =>
      u.startsWith(APP),
    ));
  }
  return new URL(url);
}

async function signInWith(sub: string, p = project) {
  const { verifier, challenge } = pkce();
  const landed = await throughProvider(authorizeUrl(p, challenge), sub);
  const code = landed.searchParams.get('code');
  if (!code) throw new Error(`no code: ${landed.toString()}`);
  const res = await api.post('/token', { headers: p.headers, body: { code, codeVerifier: verifier } });
  return { res, code, verifier };
}

const eventsOf = async (userId: string, p = project) =>
  (await api.get(`/users/${userId}/events`, { headers: p.headers })).body.events.map(
    (e: { type: string; data: Record<string, unknown> }) => [e.type, e.data],
  );

describe('OIDC providers of a project', () => {
  it('when a provider is added, then its secret is stored sealed and never returned; other projects do not see it', async () => {
    const list = await api.get('/oidc/providers', { headers: project.headers });
    expect(list.body.providers).toEqual([
      expect.objectContaining({
        name: 'idp',
        issuer: issuer.issuer,
        clientId: 'app-client',
        hasClientSecret: true,
        scopes: ['openid', 'email', 'profile'],
        acceptUnverifiedEmails: false,
        redirectUri: CALLBACK,
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain('app-secret');
    const row = await svc.deps.db('oidc_providers').where({ project_id: project.projectId }).first();
    expect(row.client_secret_sealed).not.toContain('app-secret');
    expect((await api.get('/oidc/providers', { headers: other.headers })).body.providers).toEqual([]);
    expect((await api.get('/oidc/providers/idp', { headers: other.headers })).status).toBe(404);
    expect((await api.delete('/oidc/providers/idp', { headers: other.headers })).status).toBe(404);
  });

  it('when a preset, a duplicate, a change and a removal are asked for, then each answers as documented', async () => {
    const p = await svc.createProject();
    const google = await api.post('/oidc/providers', {
      headers: p.headers,
      body: { name: 'google', preset: 'google', clientId: 'g-client', clientSecret: 'g-secret' },
    });
    expect(google.body.provider).toMatchObject({ issuer: 'https://accounts.google.com', hasClientSecret: true });
    const again = await api.post('/oidc/providers', {
      headers: p.headers,
      body: { name: 'google', preset: 'google', clientId: 'x' },
    });
    expect(again.status).toBe(409);
    const changed = await api.patch('/oidc/providers/google', {
      headers: p.headers,
      body: { clientSecret: null, scopes: ['email'] },
    });
    expect(changed.body.provider).toMatchObject({ hasClientSecret: false, scopes: ['openid', 'email'] });
    expect((await api.get('/oidc/providers/google', { headers: p.headers })).body.provider.clientId).toBe('g-client');
    expect((await api.delete('/oidc/providers/google', { headers: p.headers })).status).toBe(204);
    expect((await api.patch('/oidc/providers/google', { headers: p.headers, body: { clientId: 'y' } })).status).toBe(
      404,
    );
    const bad = await api.post('/oidc/providers', {
      headers: p.headers,
      body: { name: 'Bad Name', issuer: 'ftp://x', clientId: 'c' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('sign-in with a provider', () => {
  it('when a new person signs in, then an account is created with the verified e-mail, and again signs in to it', async () => {
    const first = await signInWith('alice');
    expect(first.res.status).toBe(200);
    const user = first.res.body.user;
    expect(user).toMatchObject({ email: 'alice@idp.test', emailVerified: true, isAnonymous: false });
    const claims = claimsOf(first.res.body.accessToken);
    expect(claims).toMatchObject({ sub: user.id, aal: 'aal1', aud: `urn:platform:project:${project.projectId}` });
    expect(claims.sid).toEqual(expect.any(String));
    const identities = await api.get('/me/identities', { bearer: first.res.body.accessToken });
    expect(identities.body).toMatchObject({
      hasPassword: false,
      identities: [{ provider: 'idp', email: 'alice@idp.test', emailVerified: true }],
    });

    const second = await signInWith('alice');
    expect(second.res.status).toBe(200);
    expect(second.res.body.user.id).toBe(user.id);
    const sessions = await api.get('/sessions', { bearer: second.res.body.accessToken });
    expect(sessions.body.sessions.map((s: { method: string }) => s.method)).toEqual(['oidc', 'oidc']);
    expect(await eventsOf(user.id)).toEqual([
      ['sign_in', { method: 'oidc', aal: 'aal1', provider: 'idp' }],
      ['sign_up', { method: 'oidc', provider: 'idp' }],
    ]);

    // The one-time code works once.
    const replay = await api.post('/token', {
      headers: project.headers,
      body: { code: second.code, codeVerifier: second.verifier },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('when the verified e-mail is that of a password user, then the provider is linked to that user', async () => {
    const { user } = await registerUser(api, project, 'bob@idp.test');
    const { res } = await signInWith('bob');
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect((await eventsOf(user.id))[1]).toEqual(['identity_linked', { provider: 'idp', via: 'verified_email' }]);
    const identities = await api.get('/me/identities', { bearer: res.body.accessToken });
    expect(identities.body.hasPassword).toBe(true);
    expect(identities.body.identities).toHaveLength(1);
  });

  it('when the e-mail of an existing user is not verified by the provider, then it is refused, not linked', async () => {
    const { user } = await registerUser(api, project, 'mallory@idp.test');
    const { challenge } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'mallory');
    expect(landed.origin + landed.pathname).toBe(APP);
    expect(landed.searchParams.get('error')).toBe('email_not_verified');
    expect(landed.searchParams.get('code')).toBeNull();
    expect(await svc.deps.db('user_identities').where({ user_id: user.id })).toEqual([]);
  });

  it('when the state is not the one sent, then the app gets invalid_state and no code', async () => {
    const { challenge } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'carol', {
      atCallback: (url) => {
        const tampered = new URL(url);
        tampered.searchParams.set('state', 'forged-state');
        return tampered.toString();
      },
    });
    expect(landed.searchParams.get('error')).toBe('invalid_state');
    expect(landed.searchParams.get('code')).toBeNull();
  });

  it('when the callback comes a second time, then invalid_state', async () => {
    const { challenge } = pkce();
    const browser = new HttpBrowser(svc.app, SERVICE);
    let callback = '';
    await throughProvider(authorizeUrl(project, challenge), 'carol', {
      browser,
      atCallback: (url) => (callback = url),
    });
    const again = await browser.follow(callback, (u) => u.startsWith(APP));
    expect(new URL(again.url).searchParams.get('error')).toBe('invalid_state');
  });

  it('when the ID token carries another nonce, then invalid_id_token', async () => {
    await issuer.tamperNextIdToken({ nonce: 'not-the-flows-nonce' });
    const { challenge } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'dave');
    expect(landed.searchParams.get('error')).toBe('invalid_id_token');
  });

  it('when the ID token is for another audience, then invalid_id_token', async () => {
    await issuer.tamperNextIdToken({ aud: 'another-client' });
    const { challenge } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'dave');
    expect(landed.searchParams.get('error')).toBe('invalid_id_token');
  });

  it('when the ID token has expired, then invalid_id_token', async () => {
    await issuer.tamperNextIdToken({ exp: Math.floor(Date.now() / 1000) - 600 });
    const { challenge } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'dave');
    expect(landed.searchParams.get('error')).toBe('invalid_id_token');
  });

  it('when the browser comes back after the flow expired, then the app gets expired and no code', async () => {
    const landed = await throughProvider(authorizeUrl(project, pkce().challenge), 'dave', {
      atCallback: async (url) => {
        await svc.deps
          .db('oidc_flows')
          .where({ project_id: project.projectId })
          .whereNull('used_at')
          .update({ expires_at: new Date(Date.now() - 1_000) });
        return url;
      },
    });
    expect(landed.searchParams.get('error')).toBe('expired');
    expect(landed.searchParams.get('code')).toBeNull();
  });

  it('when the app exchanges its code after it expired, then 401 and no session', async () => {
    const { challenge, verifier } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'dave');
    const code = landed.searchParams.get('code')!;
    await svc.deps
      .db('authorization_codes')
      .where({ code_hash: createHash('sha256').update(code).digest('hex') })
      .update({ expires_at: new Date(Date.now() - 1_000) });
    const sessions = () => svc.deps.db('sessions').count<{ n: string }[]>('* as n');
    const before = await sessions();
    const res = await api.post('/token', { headers: project.headers, body: { code, codeVerifier: verifier } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(await sessions()).toEqual(before);
  });

  it('when the person declines at the provider, then the app gets access_denied', async () => {
    const { challenge } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'dave', { decline: true });
    expect(landed.searchParams.get('error')).toBe('access_denied');
  });

  it('when redirect_to is not in the allowed list, then 400 and no redirect', async () => {
    const { challenge } = pkce();
    for (const target of ['https://evil.example.com/cb', `${APP}/more`, `${APP}?x=1`]) {
      const res = await api.get('/authorize', {
        query: { api_key: project.apiKey, provider: 'idp', redirect_to: target, code_challenge: challenge },
      });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
  });

  it('when the provider or the key is unknown, then provider_not_found on the app URL, or 401', async () => {
    const { challenge } = pkce();
    const unknown = await api.get('/authorize', {
      query: { api_key: project.apiKey, provider: 'nope', redirect_to: APP, code_challenge: challenge },
    });
    expect(unknown.status).toBe(302);
    expect(new URL(unknown.headers.location).searchParams.get('error')).toBe('provider_not_found');
    const badKey = await api.get('/authorize', {
      query: { api_key: 'pk_unknown', provider: 'idp', redirect_to: APP, code_challenge: challenge },
    });
    expect(badKey.status).toBe(401);
  });

  it('when the verifier is wrong, then 401 and the code is used up', async () => {
    const { challenge, verifier } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'erin');
    const code = landed.searchParams.get('code')!;
    const wrong = await api.post('/token', { headers: project.headers, body: { code, codeVerifier: pkce().verifier } });
    expect(wrong.status).toBe(401);
    const right = await api.post('/token', { headers: project.headers, body: { code, codeVerifier: verifier } });
    expect(right.status).toBe(401);
  });

  it('when the one-time code is replayed, then the session it started ends and its refresh token is refused (OAuth 2.0 Security BCP)', async () => {
    const first = await signInWith('carol');
    expect(first.res.status).toBe(200);
    const userId = first.res.body.user.id as string;
    const sid = claimsOf(first.res.body.accessToken).sid;
    const other = await signInWith('carol');

    const replay = await api.post('/token', {
      headers: project.headers,
      body: { code: first.code, codeVerifier: first.verifier },
    });
    expect(replay.status).toBe(401);
    const refreshed = await api.post('/refresh-token', {
      headers: project.headers,
      body: { refreshToken: first.res.body.refreshToken },
    });
    expect(refreshed.status).toBe(401);
    // The user's other session, from another code, goes on.
    const stillOn = await api.post('/refresh-token', {
      headers: project.headers,
      body: { refreshToken: other.res.body.refreshToken },
    });
    expect(stillOn.status).toBe(200);
    const events = await eventsOf(userId);
    expect(events).toContainEqual(['sign_in_failed', { method: 'oidc', reason: 'code_reused' }]);
    expect(events).toContainEqual(['session_ended', { endedBy: 'reuse_detected' }]);
    const ended = await svc.deps.db('sessions').where({ id: sid }).first('ended_at', 'ended_by');
    expect(ended).toMatchObject({ ended_at: expect.any(Date), ended_by: 'reuse_detected' });
  });

  it('when the code is replayed while its first exchange is still starting the session, then that exchange issues no tokens', async () => {
    const { challenge, verifier } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'carol');
    const code = landed.searchParams.get('code')!;
    const codeHash = createHash('sha256').update(code).digest('hex');
    const row = svc.deps.db('authorization_codes').where({ code_hash: codeHash });
    const before = await svc.deps.db('sessions').count<{ n: string }[]>('* as n');
    // What the replay leaves on the code when it lands between the first exchange's two steps.
    await row.clone().update({ replayed_at: svc.deps.db.fn.now() });
    const res = await api.post('/token', { headers: project.headers, body: { code, codeVerifier: verifier } });
    expect(res.status).toBe(401);
    expect(await svc.deps.db('sessions').count<{ n: string }[]>('* as n')).toEqual(before);
    expect(await row.clone().first('session_id')).toEqual({ session_id: null });
  });

  it("when another project's keys exchange the code, or its api_key asks for this provider, then neither works", async () => {
    const { challenge, verifier } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'erin');
    const code = landed.searchParams.get('code')!;
    const elsewhere = await api.post('/token', { headers: other.headers, body: { code, codeVerifier: verifier } });
    expect(elsewhere.status).toBe(401);
    const here = await api.post('/token', { headers: project.headers, body: { code, codeVerifier: verifier } });
    expect(here.status).toBe(200);
    const viaOther = await api.get('/authorize', {
      query: { api_key: other.apiKey, provider: 'idp', redirect_to: APP, code_challenge: challenge },
    });
    expect(new URL(viaOther.headers.location).searchParams.get('error')).toBe('provider_not_found');
  });
});

describe('identities of the signed-in user', () => {
  it('when an anonymous user links a provider, then they keep their id and get its verified e-mail', async () => {
    const anon = (await api.post('/anonymous', { headers: project.headers, body: {} })).body;
    const { challenge, verifier } = pkce();
    const started = await api.post('/me/identities', {
      headers: project.headers,
      bearer: anon.accessToken,
      body: { provider: 'idp', redirectTo: APP, codeChallenge: challenge },
    });
    expect(started.status).toBe(200);
    const landed = await throughProvider(started.body.authorizeUrl, 'frank');
    const res = await api.post('/token', {
      headers: project.headers,
      body: { code: landed.searchParams.get('code')!, codeVerifier: verifier },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: anon.user.id, email: 'frank@idp.test', isAnonymous: false });
    expect(claimsOf(res.body.accessToken).is_anonymous).toBe(false);
    const types = (await eventsOf(anon.user.id)).map(([type]: [string]) => type);
    expect(types).toEqual(expect.arrayContaining(['identity_linked', 'anonymous_converted', 'sign_in']));

    // The only way this user signs in: it cannot be unlinked.
    const identities = await api.get('/me/identities', { bearer: res.body.accessToken });
    const only = identities.body.identities[0].id;
    const refused = await api.delete(`/me/identities/${only}`, { bearer: res.body.accessToken });
    expect(refused.status).toBe(409);
  });

  it('when the provider account is already linked to another user, then identity_already_linked', async () => {
    const { accessToken } = await registerUser(api, project, uniqueEmail('linker'));
    const { challenge } = pkce();
    const started = await api.post('/me/identities', {
      headers: project.headers,
      bearer: accessToken,
      body: { provider: 'idp', redirectTo: APP, codeChallenge: challenge },
    });
    const landed = await throughProvider(started.body.authorizeUrl, 'alice');
    expect(landed.searchParams.get('error')).toBe('identity_already_linked');
  });

  it('when a user with a password unlinks their provider, then it is gone and the trail says so', async () => {
    const { user, accessToken } = await registerUser(api, project, uniqueEmail('unlink'), PASSWORD);
    const { challenge } = pkce();
    const started = await api.post('/me/identities', {
      headers: project.headers,
      bearer: accessToken,
      body: { provider: 'idp', redirectTo: APP, codeChallenge: challenge },
    });
    const landed = await throughProvider(started.body.authorizeUrl, `unlink-${Date.now()}`);
    expect(landed.searchParams.get('code')).toEqual(expect.any(String));
    const listed = await api.get('/me/identities', { bearer: accessToken });
    expect(listed.body.identities).toHaveLength(1);
    const gone = await api.delete(`/me/identities/${listed.body.identities[0].id}`, { bearer: accessToken });
    expect(gone.status).toBe(204);
    expect((await api.get('/me/identities', { bearer: accessToken })).body.identities).toEqual([]);
    expect((await api.delete(`/me/identities/${listed.body.identities[0].id}`, { bearer: accessToken })).status).toBe(
      404,
    );
    expect((await eventsOf(user.id))[0]).toEqual(['identity_unlinked', { provider: 'idp' }]);
  });

  it('when linking names an unknown provider or a redirect outside the list, then 404 or 400', async () => {
    const { accessToken } = await registerUser(api, project);
    const { challenge } = pkce();
    const link = (body: Record<string, string>) =>
      api.post('/me/identities', { headers: project.headers, bearer: accessToken, body });
    expect((await link({ provider: 'nope', redirectTo: APP, codeChallenge: challenge })).status).toBe(404);
    expect(
      (await link({ provider: 'idp', redirectTo: 'https://evil.example.com', codeChallenge: challenge })).status,
    ).toBe(400);
  });
});

describe('issuers at private addresses', () => {
  it('when the service does not allow the loopback issuer, then the sign-in ends with temporarily_unavailable', async () => {
    const guarded = await startAuth({ AUTH_PUBLIC_URL: SERVICE });
    try {
      const guardedApi = apiOf(guarded.app);
      const p = await guarded.createProject({ allowedRedirectUrls: [APP] });
      await guardedApi.post('/oidc/providers', {
        headers: p.headers,
        body: { name: 'idp', issuer: issuer.issuer, clientId: 'app-client' },
      });
      const res = await guardedApi.get('/authorize', {
        query: { api_key: p.apiKey, provider: 'idp', redirect_to: APP, code_challenge: pkce().challenge },
      });
      expect(res.status).toBe(302);
      expect(new URL(res.headers.location).searchParams.get('error')).toBe('temporarily_unavailable');
    } finally {
      await guarded.close();
    }
  });
});

describe('requests the provider endpoints refuse', () => {
  it('when keys or a bearer are missing, then 401 everywhere they are needed', async () => {
    expect((await api.get('/oidc/providers')).status).toBe(401);
    expect((await api.post('/oidc/providers', { body: { name: 'x', preset: 'google', clientId: 'c' } })).status).toBe(
      401,
    );
    expect((await api.get('/oidc/providers/idp')).status).toBe(401);
    expect((await api.patch('/oidc/providers/idp', { body: { clientId: 'c' } })).status).toBe(401);
    expect((await api.delete('/oidc/providers/idp')).status).toBe(401);
    expect((await api.get('/me/identities')).status).toBe(401);
    expect(
      (await api.post('/me/identities', { headers: project.headers, body: { provider: 'idp', redirectTo: APP } }))
        .status,
    ).toBe(401);
    expect((await api.delete('/me/identities/x')).status).toBe(401);
    expect((await api.post('/token', { body: { code: 'c', codeVerifier: pkce().verifier } })).status).toBe(401);
  });

  it('when a name or body is malformed, then 400', async () => {
    expect((await api.get('/oidc/providers/Not%20A%20Name', { headers: project.headers })).status).toBe(400);
    expect(
      (await api.patch('/oidc/providers/Not%20A%20Name', { headers: project.headers, body: { clientId: 'c' } })).status,
    ).toBe(400);
    expect((await api.patch('/oidc/providers/idp', { headers: project.headers, body: {} })).status).toBe(400);
    expect((await api.delete('/oidc/providers/Not%20A%20Name', { headers: project.headers })).status).toBe(400);
    expect(
      (await api.post('/token', { headers: project.headers, body: { code: 'c', codeVerifier: 'short' } })).status,
    ).toBe(400);
  });

  it('when the callback names no flow of this service, then 400; with the flow cookie and a wrong state, the app URL', async () => {
    const lost = await api.get('/callback', { query: { state: 'unknown', code: 'x' } });
    expect(lost.status).toBe(400);
    const started = await api.get('/authorize', {
      query: { api_key: project.apiKey, provider: 'idp', redirect_to: APP, code_challenge: pkce().challenge },
    });
    expect(started.status).toBe(302);
    const cookie = (started.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    expect(cookie).toMatch(/^platform_oidc_flow=/);
    const back = await api.get('/callback', { query: { state: 'forged', code: 'x' }, headers: { cookie } });
    expect(back.status).toBe(302);
    expect(new URL(back.headers.location).searchParams.get('error')).toBe('invalid_state');
  });

  it('when the tenant is suspended, then /authorize is 403', async () => {
    const p = await svc.createProject({ allowedRedirectUrls: [APP] });
    await svc.deps.platformDb('tenants').where({ id: p.tenantId }).update({ suspended_at: new Date() });
    const res = await api.get('/authorize', {
      query: { api_key: p.apiKey, provider: 'idp', redirect_to: APP, code_challenge: pkce().challenge },
    });
    expect(res.status).toBe(403);
  });

  it('when the user is disabled between the callback and the exchange, then /token is 403', async () => {
    const { challenge, verifier } = pkce();
    const landed = await throughProvider(authorizeUrl(project, challenge), 'alice');
    const alice = await svc.deps.db('users').where({ project_id: project.projectId, email: 'alice@idp.test' }).first();
    await api.post(`/users/${alice.id}/disable`, { headers: project.headers });
    try {
      const res = await api.post('/token', {
        headers: project.headers,
        body: { code: landed.searchParams.get('code')!, codeVerifier: verifier },
      });
      expect(res.status).toBe(403);
      const again = await throughProvider(authorizeUrl(project, pkce().challenge), 'alice');
      expect(again.searchParams.get('error')).toBe('account_disabled');
    } finally {
      await api.post(`/users/${alice.id}/enable`, { headers: project.headers });
    }
  });
});
