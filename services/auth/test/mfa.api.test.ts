import type { TestProject, TestService } from '@platform/testkit';
import jwt from 'jsonwebtoken';
import { generateSync } from 'otplib';
import { apiOf, PASSWORD, registerUser, startAuth, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject();
});
afterAll(() => svc.close());

/** The code of the authenticator at `offsetSeconds` from now (a chosen time). */
const codeAt = (secret: string, offsetSeconds = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
const claimsOf = (accessToken: string) => jwt.decode(accessToken) as Record<string, unknown>;
const login = (email: string, p = project) =>
  api.post('/login', { headers: p.headers, body: { email, password: PASSWORD } });
const verify = (body: Record<string, string>, p = project) => api.post('/mfa/verify', { headers: p.headers, body });

/** A user with an active TOTP factor: its secret, the recovery codes and the registration's token. */
async function enrolledUser(p = project) {
  const registered = await registerUser(api, p);
  const enroll = await api.post('/mfa/totp', { bearer: registered.accessToken });
  expect(enroll.status).toBe(201);
  const { secret, factor } = enroll.body;
  const activated = await api.post(`/mfa/totp/${factor.id}/activate`, {
    bearer: registered.accessToken,
    body: { code: codeAt(secret, -30) },
  });
  expect(activated.status).toBe(200);
  return {
    ...registered,
    secret,
    factorId: factor.id as string,
    recoveryCodes: activated.body.recoveryCodes as string[],
  };
}

const typesOf = async (userId: string) =>
  (await api.get(`/users/${userId}/events`, { headers: project.headers })).body.events
    .map((e: { type: string }) => e.type)
    .reverse();

describe('TOTP enrolment', () => {
  it('when a user enrolls, then a secret, an otpauth URI and an SVG QR code come back, and the secret is sealed at rest', async () => {
    const { user, accessToken } = await registerUser(api, project);
    const res = await api.post('/mfa/totp', { bearer: accessToken });
    expect(res.status).toBe(201);
    expect(res.body.factor).toMatchObject({ type: 'totp', status: 'pending', activatedAt: null });
    expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(res.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]+&issuer=/);
    expect(res.body.otpauthUri).toContain(encodeURIComponent(user.email));
    expect(res.body.qrCodeSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const row = await svc.deps.db('mfa_factors').where({ user_id: user.id }).first('secret_sealed');
    expect(row.secret_sealed).not.toContain(res.body.secret);
    expect(svc.deps.secrets.decrypt(row.secret_sealed)).toBe(res.body.secret);
  });

  it('when activated with a first code, then ten recovery codes come once, stored hashed, and the factor is listed active', async () => {
    const { user, accessToken, recoveryCodes } = await enrolledUser();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await svc.deps.db('mfa_recovery_codes').where({ user_id: user.id }).select('code_hash');
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]);
    const list = await api.get('/mfa/factors', { bearer: accessToken });
    expect(list.body).toMatchObject({ factors: [{ status: 'active' }], recoveryCodesRemaining: 10 });
    expect(await typesOf(user.id)).toContain('mfa_enrolled');
    // One TOTP factor at a time.
    expect((await api.post('/mfa/totp', { bearer: accessToken })).status).toBe(409);
  });

  it('when the first code is wrong, then 400 and the factor stays pending', async () => {
    const { accessToken } = await registerUser(api, project);
    const { factor, secret } = (await api.post('/mfa/totp', { bearer: accessToken })).body;
    const wrong = await api.post(`/mfa/totp/${factor.id}/activate`, {
      bearer: accessToken,
      body: { code: codeAt(secret, 600) },
    });
    expect(wrong.status).toBe(400);
    expect((await api.get('/mfa/factors', { bearer: accessToken })).body.factors[0].status).toBe('pending');
  });

  it("when another user's factor id is activated, then 404", async () => {
    const alice = await registerUser(api, project);
    const bob = await registerUser(api, project);
    const { factor, secret } = (await api.post('/mfa/totp', { bearer: bob.accessToken })).body;
    const res = await api.post(`/mfa/totp/${factor.id}/activate`, {
      bearer: alice.accessToken,
      body: { code: codeAt(secret) },
    });
    expect(res.status).toBe(404);
  });
});

describe('sign-in with a second factor', () => {
  it('when the password is right, then a challenge instead of tokens; a code completes it with aal2 tokens of a new mfa session', async () => {
    const { user, secret } = await enrolledUser();
    const first = await login(user.email);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, mfaRequired: true, challengeId: expect.any(String) });
    expect(first.body.accessToken).toBeUndefined();
    const done = await verify({ challengeId: first.body.challengeId, code: codeAt(secret) });
    expect(done.status).toBe(200);
    const claims = claimsOf(done.body.accessToken);
    expect(claims).toMatchObject({ sub: user.id, aal: 'aal2', sid: expect.any(String) });
    const sessions = await api.get('/sessions', { bearer: done.body.accessToken });
    expect(sessions.body.sessions.find((s: { current: boolean }) => s.current)).toMatchObject({
      method: 'mfa',
      aal: 'aal2',
    });
    expect((await api.post('/refresh-token', { headers: project.headers, body: done.body })).status).toBe(200);
    // The challenge is single use.
    expect((await verify({ challengeId: first.body.challengeId, code: codeAt(secret, 30) })).status).toBe(401);
  });

  it('when a code was already used, then it is refused even for a new challenge; the next step works', async () => {
    const { user, secret } = await enrolledUser();
    const code = codeAt(secret);
    const one = await login(user.email);
    expect((await verify({ challengeId: one.body.challengeId, code })).status).toBe(200);
    const two = await login(user.email);
    const replay = await verify({ challengeId: two.body.challengeId, code });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('INVALID_CREDENTIALS');
    expect((await verify({ challengeId: two.body.challengeId, code: codeAt(secret, 30) })).status).toBe(200);
  });

  it('when a recovery code is used, then it signs in once and never again', async () => {
    const { user, recoveryCodes, accessToken } = await enrolledUser();
    const one = await login(user.email);
    const ok = await verify({ challengeId: one.body.challengeId, recoveryCode: recoveryCodes[0].toUpperCase() });
    expect(ok.status).toBe(200);
    expect(claimsOf(ok.body.accessToken).aal).toBe('aal2');
    const two = await login(user.email);
    expect((await verify({ challengeId: two.body.challengeId, recoveryCode: recoveryCodes[0] })).status).toBe(401);
    expect((await api.get('/mfa/factors', { bearer: accessToken })).body.recoveryCodesRemaining).toBe(9);
    const types = await typesOf(user.id);
    expect(types).toEqual(expect.arrayContaining(['recovery_code_used', 'mfa_challenge_failed']));
  });

  it('when codes are guessed, then each wrong one counts and the fifth locks the account (423, even with the right code)', async () => {
    const { user, secret } = await enrolledUser();
    const { challengeId } = (await login(user.email)).body;
    for (let i = 0; i < 5; i++) {
      const res = await verify({ challengeId, code: codeAt(secret, 3600 + i * 30) });
      expect(res.status).toBe(401);
    }
    const locked = await verify({ challengeId, code: codeAt(secret) });
    expect(locked.status).toBe(423);
    expect(locked.body.error.code).toBe('ACCOUNT_LOCKED');
    expect(await typesOf(user.id)).toEqual(expect.arrayContaining(['mfa_challenge_failed', 'lockout']));
  });

  it("when another project's keys present the challenge, then 401 and nothing is issued", async () => {
    const { user, secret } = await enrolledUser();
    const other = await svc.createProject();
    const { challengeId } = (await login(user.email)).body;
    expect((await verify({ challengeId, code: codeAt(secret) }, other)).status).toBe(401);
    expect((await verify({ challengeId, code: codeAt(secret) })).status).toBe(200);
  });

  it('when the body has neither or both of code and recoveryCode, then 400', async () => {
    expect((await verify({ challengeId: 'x' })).status).toBe(400);
  });
});

describe('removing a factor and new recovery codes', () => {
  it('when the factor is removed with a current code, then password sign-in gives tokens again and mfa_removed is recorded', async () => {
    const { user, secret, factorId, accessToken } = await enrolledUser();
    const wrong = await api.delete(`/mfa/factors/${factorId}`, {
      bearer: accessToken,
      body: { code: codeAt(secret, 900) },
    });
    expect(wrong.status).toBe(401);
    const res = await api.delete(`/mfa/factors/${factorId}`, {
      bearer: accessToken,
      body: { code: codeAt(secret, 30) },
    });
    expect(res.status).toBe(200);
    expect((await login(user.email)).body.accessToken).toEqual(expect.any(String));
    expect(await typesOf(user.id)).toContain('mfa_removed');
    expect(await svc.deps.db('mfa_recovery_codes').where({ user_id: user.id }).select('id')).toEqual([]);
    expect((await api.delete(`/mfa/factors/${factorId}`, { bearer: accessToken, body: {} })).status).toBe(404);
  });

  it('when recovery codes are regenerated, then the old ones stop working', async () => {
    const { user, secret, recoveryCodes, accessToken } = await enrolledUser();
    const res = await api.post('/mfa/recovery-codes', { bearer: accessToken, body: { code: codeAt(secret, 30) } });
    expect(res.status).toBe(200);
    expect(res.body.recoveryCodes).toHaveLength(10);
    const { challengeId } = (await login(user.email)).body;
    expect((await verify({ challengeId, recoveryCode: recoveryCodes[1] })).status).toBe(401);
    expect((await verify({ challengeId, recoveryCode: res.body.recoveryCodes[0] })).status).toBe(200);
  });

  it('when a user has no active factor, then no code can prove one: 401', async () => {
    const { accessToken } = await registerUser(api, project);
    const res = await api.post('/mfa/recovery-codes', { bearer: accessToken, body: { recoveryCode: 'aaaaa-bbbbb' } });
    expect(res.status).toBe(401);
  });

  it('when both a code and a recovery code are sent, then 400', async () => {
    const { accessToken, factorId, secret, recoveryCodes } = await enrolledUser();
    const body = { code: codeAt(secret), recoveryCode: recoveryCodes[0] };
    expect((await api.post('/mfa/recovery-codes', { bearer: accessToken, body })).status).toBe(400);
    expect((await api.delete(`/mfa/factors/${factorId}`, { bearer: accessToken, body })).status).toBe(400);
  });

  it('when the account is locked by guessed codes, then removing and regenerating are 423, even with the right code', async () => {
    const { user, accessToken, factorId, secret } = await enrolledUser();
    const { challengeId } = (await login(user.email)).body;
    for (let i = 0; i < 5; i++) await verify({ challengeId, code: codeAt(secret, 3600 + i * 30) });
    const body = { code: codeAt(secret) };
    expect((await api.delete(`/mfa/factors/${factorId}`, { bearer: accessToken, body })).status).toBe(423);
    expect((await api.post('/mfa/recovery-codes', { bearer: accessToken, body })).status).toBe(423);
  });

  it('when a factor is activated twice, then 409', async () => {
    const { accessToken, factorId, secret } = await enrolledUser();
    const again = await api.post(`/mfa/totp/${factorId}/activate`, {
      bearer: accessToken,
      body: { code: codeAt(secret, 30) },
    });
    expect(again.status).toBe(409);
  });

  it('when there is no bearer, then every MFA endpoint is 401', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await api.post('/mfa/totp')).status).toBe(401);
    expect((await api.post(`/mfa/totp/${id}/activate`, { body: { code: '123456' } })).status).toBe(401);
    expect((await api.get('/mfa/factors')).status).toBe(401);
    expect((await api.delete(`/mfa/factors/${id}`, { body: {} })).status).toBe(401);
    expect((await api.post('/mfa/recovery-codes', { body: { code: '123456' } })).status).toBe(401);
  });
});

describe('project setting requireMfa', () => {
  it('when the user has no factor, then the tokens are good only for enrolling; after enrolling, sign-in gives aal2', async () => {
    const strict = await svc.createProject({ requireMfa: true });
    const { user, accessToken } = await registerUser(api, strict);
    expect(claimsOf(accessToken)).toMatchObject({ aal: 'aal1', scp: 'mfa_enroll' });
    const me = await api.get('/me', { bearer: accessToken });
    expect(me.status).toBe(403);
    expect(me.body.error.code).toBe('FORBIDDEN');
    expect((await api.get('/sessions', { bearer: accessToken })).status).toBe(403);

    const enroll = await api.post('/mfa/totp', { bearer: accessToken });
    expect(enroll.status).toBe(201);
    const activate = await api.post(`/mfa/totp/${enroll.body.factor.id}/activate`, {
      bearer: accessToken,
      body: { code: codeAt(enroll.body.secret, -30) },
    });
    expect(activate.status).toBe(200);
    const { challengeId } = (await login(user.email, strict)).body;
    const done = await verify({ challengeId, code: codeAt(enroll.body.secret) }, strict);
    expect(claimsOf(done.body.accessToken).scp).toBeUndefined();
    expect((await api.get('/me', { bearer: done.body.accessToken })).status).toBe(200);
  });
});
