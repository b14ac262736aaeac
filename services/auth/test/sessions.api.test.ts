import type { TestProject, TestService } from '@platform/testkit';
import { randomUUID } from 'node:crypto';
import { emailKey, recordLoginFailure } from '../src/lockout/login-failures.repository';
import { recordSignIn } from '../src/sessions/sign-in.repository';
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

const refresh = (refreshToken: unknown, p: TestProject = project) =>
  api.post('/refresh-token', { headers: p.headers, body: { refreshToken } });
const logout = (refreshToken: unknown, p: TestProject = project) =>
  api.post('/logout', { headers: p.headers, body: { refreshToken } });
const login = (email: string) => api.post('/login', { headers: project.headers, body: { email, password: PASSWORD } });

describe('POST /v1/refresh-token', () => {
  it('when the refresh token is valid, then 200 with a new pair and the user, and the old token is discarded', async () => {
    const session = await registerUser(api, project);
    const res = await refresh(session.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, user: { id: session.user.id } });
    expect(res.body.refreshToken).not.toBe(session.refreshToken);
    expect(res.body.accessToken).toEqual(expect.any(String));
    const me = await api.get('/me', { bearer: res.body.accessToken });
    expect(me.body.user.id).toBe(session.user.id);
    // The chain goes on: the new token rotates again.
    expect((await refresh(res.body.refreshToken)).status).toBe(200);
  });

  it('when the token is stored, then only its hash is in the database', async () => {
    const session = await registerUser(api, project);
    const rows = await svc.deps.db('refresh_tokens').where({ user_id: session.user.id }).select('token_hash');
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(session.refreshToken);
  });

  it('when an already rotated token is presented again, then 401 INVALID_SESSION and the whole family is revoked', async () => {
    const session = await registerUser(api, project);
    const rotated = await refresh(session.refreshToken);
    const reuse = await refresh(session.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body.error.code).toBe('INVALID_SESSION');
    // The thief's replay also kills the token the legitimate holder got.
    const afterTheft = await refresh(rotated.body.refreshToken);
    expect(afterTheft.status).toBe(401);
    expect(afterTheft.body.error.code).toBe('INVALID_SESSION');
  });

  it('when one login family is revoked for reuse, then another login of the same user keeps working', async () => {
    const session = await registerUser(api, project);
    const other = await login(session.user.email);
    await refresh(session.refreshToken);
    await refresh(session.refreshToken);
    expect((await refresh(other.body.refreshToken)).status).toBe(200);
  });

  it('when the same token is refreshed twice at once, then one succeeds and the family is revoked', async () => {
    const session = await registerUser(api, project);
    const results = await Promise.all([refresh(session.refreshToken), refresh(session.refreshToken)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await refresh(winner.body.refreshToken)).status).toBe(401);
  });

  it('when the refresh token is older than 30 days, then 401 INVALID_SESSION', async () => {
    const session = await registerUser(api, project);
    await svc.deps
      .db('refresh_tokens')
      .where({ user_id: session.user.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await refresh(session.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
  });

  it('when a fresh token expires in 30 days, then its stored expiry says so', async () => {
    const session = await registerUser(api, project);
    const row = await svc.deps.db('refresh_tokens').where({ user_id: session.user.id }).first('expires_at');
    const days = (new Date(row.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);
  });

  it('when the refresh token holds a lone surrogate, then 400 VALIDATION_ERROR, as for any text field', async () => {
    const res = await refresh('rt_\ud800');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the token is unknown, then 401 INVALID_SESSION', async () => {
    const res = await refresh('rt_not-a-real-token');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
  });

  it.each([
    ['an access token', 'access'],
    ['a 2 KB string', 'x'.repeat(2048)],
    ['a 100 KB string', 'y'.repeat(100_000)],
  ])('when the refresh token is %s, then 401 INVALID_SESSION', async (_case, token) => {
    const session = await registerUser(api, project);
    const res = await refresh(token === 'access' ? session.accessToken : token);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
  });

  it.each([
    ['missing', undefined],
    ['not a string', 42],
  ])('when the refresh token is %s, then 400 VALIDATION_ERROR', async (_case, token) => {
    const res = await refresh(token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it("when project A's refresh token comes with project B's keys, then 401 and A's session is untouched", async () => {
    const other = await svc.createProject();
    const session = await registerUser(api, project);
    const res = await refresh(session.refreshToken, other);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
    expect((await logout(session.refreshToken, other)).status).toBe(200);
    expect((await refresh(session.refreshToken)).status).toBe(200);
  });
});

describe('POST /v1/logout', () => {
  it('when logging out, then every refresh token of the user dies but the access token works until it expires', async () => {
    const session = await registerUser(api, project);
    const second = await login(session.user.email);
    const res = await logout(session.refreshToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });

    for (const token of [session.refreshToken, second.body.refreshToken]) {
      const again = await refresh(token);
      expect(again.status).toBe(401);
      expect(again.body.error.code).toBe('INVALID_SESSION');
    }
    const me = await api.get('/me', { bearer: session.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(session.user.id);
  });

  it('when logging out, then the token version goes up and a new login carries it', async () => {
    const session = await registerUser(api, project);
    await logout(session.refreshToken);
    const row = await svc.deps.db('users').where({ id: session.user.id }).first('token_version');
    expect(row.token_version).toBe(1);
    const next = await login(session.user.email);
    const claims = JSON.parse(Buffer.from(next.body.accessToken.split('.')[1], 'base64url').toString());
    expect(claims.ver).toBe(1);
    expect((await refresh(next.body.refreshToken)).status).toBe(200);
  });

  it('when the refresh token is unknown, then 200 all the same', async () => {
    const res = await logout('rt_unknown');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it('when logging out twice with the same token, then both answer 200', async () => {
    const session = await registerUser(api, project);
    expect((await logout(session.refreshToken)).status).toBe(200);
    expect((await logout(session.refreshToken)).status).toBe(200);
  });

  it('when the refresh token is missing, then 400 VALIDATION_ERROR', async () => {
    const res = await logout(undefined);
    expect(res.status).toBe(400);
  });

  it('when the key headers are missing, then 401 UNAUTHORIZED', async () => {
    const res = await api.post('/logout', { body: { refreshToken: 'rt_x' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('recording a sign-in (after bcrypt said yes)', () => {
  const token = () => ({
    session: {
      id: randomUUID(),
      method: 'password' as const,
      aal: 'aal1' as const,
      client: { ip: '203.0.113.7', userAgent: null },
      expiresAt: new Date(Date.now() + 60_000),
    },
    tokenHash: randomUUID().replace(/-/g, ''),
  });
  const tenant = (p: TestProject = project) => ({ tenantId: p.tenantId, projectId: p.projectId });

  /** The user as login checked it: id, email and the stored hash. */
  async function checked(userId: string) {
    const row = await svc.deps.db('users').where({ id: userId }).first('email', 'password_hash');
    return { id: userId, email: row.email as string, password_hash: row.password_hash as string };
  }

  const keyOf = (p: TestProject) => ({ tenant_id: p.tenantId, project_id: p.projectId });
  const failuresOf = (email: string, p: TestProject = project) =>
    svc.deps.db('login_failures').where({ ...keyOf(p), email_hash: emailKey(email) });

  async function lock(email: string, p: TestProject = project) {
    await svc.deps.db('login_failures').insert({
      ...keyOf(p),
      email_hash: emailKey(email),
      failed_count: 0,
      last_failed_at: new Date(),
      locked_until: new Date(Date.now() + 60_000),
    });
  }

  it('when the email is still unlocked and the hash the checked one, then the refresh token is stored under the current version and the failures are forgotten', async () => {
    const { user } = await registerUser(api, project);
    await svc.deps.db('users').where({ id: user.id }).update({ token_version: 3 });
    await recordLoginFailure(svc.deps.db, tenant(), user.email);
    await recordLoginFailure(svc.deps.db, tenant(), user.email);
    const issued = token();
    const signedIn = await recordSignIn(svc.deps.db, tenant(), await checked(user.id), issued);
    expect(signedIn).toMatchObject({ id: user.id, token_version: 3 });
    expect(signedIn!.last_login).toBeInstanceOf(Date);
    const refresh = await svc.deps
      .db('refresh_tokens')
      .where({ token_hash: issued.tokenHash })
      .first('user_id', 'token_version', 'family_id');
    expect(refresh).toEqual({ user_id: user.id, token_version: 3, family_id: issued.session.id });
    const session = await svc.deps.db('sessions').where({ id: issued.session.id }).first('user_id', 'ip', 'method');
    expect(session).toEqual({ user_id: user.id, ip: '203.0.113.7', method: 'password' });
    expect(await failuresOf(user.email)).toEqual([]);
  });

  it('when a concurrent failure locked the email meanwhile, then nothing is recorded and the lock stays', async () => {
    const { user } = await registerUser(api, project);
    await lock(user.email);
    const issued = token();
    expect(await recordSignIn(svc.deps.db, tenant(), await checked(user.id), issued)).toBeNull();
    expect(await svc.deps.db('refresh_tokens').where({ token_hash: issued.tokenHash }).first('id')).toBeUndefined();
    expect(await failuresOf(user.email)).toHaveLength(1);
  });

  it("when the same email is locked in another project, then this project's sign-in is recorded and that lock stays", async () => {
    const other = await svc.createProject();
    const { user } = await registerUser(api, project);
    await lock(user.email, other);
    expect(await recordSignIn(svc.deps.db, tenant(), await checked(user.id), token())).not.toBeNull();
    expect(await failuresOf(user.email, other)).toHaveLength(1);
  });

  it('when a reset changed the password meanwhile, then nothing is recorded', async () => {
    const { user } = await registerUser(api, project);
    const issued = token();
    const stale = { ...(await checked(user.id)), password_hash: '$2b$04$not-the-current-hash' };
    expect(await recordSignIn(svc.deps.db, tenant(), stale, issued)).toBeNull();
    expect(await svc.deps.db('refresh_tokens').where({ token_hash: issued.tokenHash }).first('id')).toBeUndefined();
  });
});
