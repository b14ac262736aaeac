import jwt from 'jsonwebtoken';
import type { TestProject, TestService } from '@platform/testkit';
import { emailKey } from '../src/lockout/login-failures.repository';
import { apiOf, PASSWORD, registerUser, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject();
});
afterAll(() => svc.close());

describe('POST /v1/register', () => {
  it('when the payload is valid, then 201 with the user, an access token and a refresh token', async () => {
    const email = uniqueEmail('reg');
    const res = await api.post('/register', {
      headers: project.headers,
      body: { email, password: PASSWORD, metadata: { plan: 'free' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      user: { email, emailVerified: false, metadata: { plan: 'free' }, lastLogin: null, phoneVerified: false },
      refreshToken: expect.stringMatching(/^rt_/),
    });
    expect(res.body.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.user.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.body.user).not.toHaveProperty('passwordHash');
  });

  it('when registering, then the access token is RS256, lives 15 minutes and names user, tenant, project and version', async () => {
    const { user, accessToken } = await registerUser(api, project);
    const claims = jwt.verify(accessToken, svc.deps.jwt.publicKey, { algorithms: ['RS256'] }) as jwt.JwtPayload;
    expect(claims).toMatchObject({
      sub: user.id,
      tid: project.tenantId,
      pid: project.projectId,
      email: user.email,
      ver: 0,
    });
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
  });

  it('when the email has spaces and capitals, then it is stored trimmed and lowercased', async () => {
    const email = uniqueEmail('Mixed');
    const res = await api.post('/register', {
      headers: project.headers,
      body: { email: `  ${email.toUpperCase()} `, password: PASSWORD },
      offContract: 'the padded address is trimmed before its format is checked',
    });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe(email.toLowerCase());
  });

  it('when the email is already registered in another case, then 409 USER_ALREADY_EXISTS', async () => {
    const email = uniqueEmail('dup');
    await registerUser(api, project, email);
    const res = await api.post('/register', {
      headers: project.headers,
      body: { email: email.toUpperCase(), password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, error: { code: 'USER_ALREADY_EXISTS', message: expect.any(String) } });
  });

  it('when the same email registers concurrently twice, then exactly one 201 and one 409', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      [1, 2].map(() => api.post('/register', { headers: project.headers, body: { email, password: PASSWORD } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('when the same email registers in two projects, then they are two different users', async () => {
    const other = await svc.createProject();
    const email = uniqueEmail('twice');
    const a = await registerUser(api, project, email);
    const b = await registerUser(api, other, email);
    expect(a.user.id).not.toBe(b.user.id);
    const lookup = await api.get('/users/by-email', { headers: other.headers, query: { email } });
    expect(lookup.body.user).toMatchObject({ id: b.user.id, projectId: other.projectId });
  });

  it.each([
    ['email is missing', { password: PASSWORD }, 'email'],
    ['email is not an email', { email: 'not-an-email', password: PASSWORD }, 'email'],
    ['password is missing', { email: 'x@example.com' }, 'password'],
    ['password is 7 bytes', { email: 'x@example.com', password: '1234567' }, 'password'],
    ['password is 73 bytes', { email: 'x@example.com', password: 'a'.repeat(73) }, 'password'],
    ['password is 37 two-byte characters (74 bytes)', { email: 'x@example.com', password: 'é'.repeat(37) }, 'password'],
    ['password contains a NUL', { email: 'x@example.com', password: 'abcd\u0000efgh' }, 'password'],
    ['metadata is an array', { email: 'x@example.com', password: PASSWORD, metadata: [1] }, 'metadata'],
  ])('when %s, then 400 VALIDATION_ERROR naming the field', async (_case, body, field) => {
    const res = await api.post('/register', { headers: project.headers, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('when the password is exactly 72 bytes of multi-byte characters, then it is accepted and all of it counts', async () => {
    const email = uniqueEmail('long');
    const password = 'é'.repeat(36);
    await registerUser(api, project, email, password);
    const wrongLast = `${'é'.repeat(35)}e`;
    expect((await api.post('/login', { headers: project.headers, body: { email, password } })).status).toBe(200);
    expect((await api.post('/login', { headers: project.headers, body: { email, password: wrongLast } })).status).toBe(
      401,
    );
  });

  it('when the body is not JSON, then 400 VALIDATION_ERROR', async () => {
    const res = await api.post('/register', {
      headers: { ...project.headers, 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the key headers are missing, then 401 UNAUTHORIZED', async () => {
    const res = await api.post('/register', { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('POST /v1/login', () => {
  it('when the credentials are right, then 200 with user, tokens and lastLogin set', async () => {
    const { user } = await registerUser(api, project);
    const res = await api.post('/login', {
      headers: project.headers,
      body: { email: ` ${user.email.toUpperCase()}`, password: PASSWORD },
      offContract: 'the padded address is trimmed before its format is checked',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      user: { id: user.id },
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
    });
    expect(Date.now() - Date.parse(res.body.user.lastLogin)).toBeLessThan(60_000);
  });

  it.each([
    ['email is missing', { password: PASSWORD }],
    ['password is missing', { email: 'x@example.com' }],
    ['the body is empty', undefined],
  ])('when %s, then 400 VALIDATION_ERROR', async (_case, body) => {
    const res = await api.post('/login', { headers: project.headers, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the tenant identifier is missing, then 401 UNAUTHORIZED like any other key problem', async () => {
    const headers: Record<string, string> = { ...project.headers };
    delete headers['x-tenant-id'];
    const res = await api.post('/login', { headers, body: { email: 'x@example.com', password: PASSWORD } });
    expect(res.status).toBe(401);
  });

  it('when the email is unknown or the password wrong, then the same 401 INVALID_CREDENTIALS body', async () => {
    const { user } = await registerUser(api, project);
    const unknown = await api.post('/login', {
      headers: project.headers,
      body: { email: uniqueEmail('nobody'), password: PASSWORD },
    });
    const wrong = await api.post('/login', {
      headers: project.headers,
      body: { email: user.email, password: 'wrong password' },
    });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('when a user of another project logs in with these keys, then 401', async () => {
    const other = await svc.createProject();
    const { user } = await registerUser(api, other);
    const res = await api.post('/login', { headers: project.headers, body: { email: user.email, password: PASSWORD } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('when a password longer than 72 bytes shares the first 72 bytes of the real one, then 401 (never truncated)', async () => {
    const password = 'p'.repeat(72);
    const { user } = await registerUser(api, project, uniqueEmail(), password);
    const res = await api.post('/login', {
      headers: project.headers,
      body: { email: user.email, password: `${password}extra` },
    });
    expect(res.status).toBe(401);
  });

  it('when 5 consecutive logins fail, then the account is locked: 423 ACCOUNT_LOCKED with Retry-After, even with the right password', async () => {
    const { user } = await registerUser(api, project);
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/login', {
        headers: project.headers,
        body: { email: user.email, password: 'wrong password' },
      });
      expect(res.status).toBe(401);
    }
    const locked = await api.post('/login', {
      headers: project.headers,
      body: { email: user.email, password: PASSWORD },
    });
    expect(locked.status).toBe(423);
    expect(locked.body.error.code).toBe('ACCOUNT_LOCKED');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('when the 15-minute lock has passed, then the right password logs in again', async () => {
    const { user } = await registerUser(api, project);
    for (let i = 0; i < 5; i++) {
      await api.post('/login', { headers: project.headers, body: { email: user.email, password: 'wrong password' } });
    }
    await svc.deps
      .db('login_failures')
      .where({ tenant_id: project.tenantId, project_id: project.projectId, email_hash: emailKey(user.email) })
      .update({ locked_until: new Date(Date.now() - 1000) });
    const res = await api.post('/login', { headers: project.headers, body: { email: user.email, password: PASSWORD } });
    expect(res.status).toBe(200);
  });

  it('when a login succeeds between failures, then the count starts again', async () => {
    const { user } = await registerUser(api, project);
    const attempt = (password: string) =>
      api.post('/login', { headers: project.headers, body: { email: user.email, password } });
    for (let i = 0; i < 4; i++) expect((await attempt('wrong password')).status).toBe(401);
    expect((await attempt(PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt('wrong password')).status).toBe(401);
    expect((await attempt(PASSWORD)).status).toBe(200);
  });

  it('when failures hit an unknown email, then it locks like an account: 423 ACCOUNT_LOCKED with Retry-After', async () => {
    const email = uniqueEmail('ghost');
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/login', { headers: project.headers, body: { email, password: 'wrong password' } });
      expect(res.status).toBe(401);
    }
    const locked = await api.post('/login', { headers: project.headers, body: { email, password: PASSWORD } });
    expect(locked.status).toBe(423);
    expect(locked.body.error.code).toBe('ACCOUNT_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });
});
