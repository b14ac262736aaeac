import jwt from 'jsonwebtoken';
import { MAX_JSON_DEPTH } from '@platform/tenancy';
import type { TestProject, TestService } from '@platform/testkit';
import { apiOf, PASSWORD, registerUser, startAuth, uniqueEmail, type Api } from './support/auth-test-service';

let svc: TestService;
let api: Api;
let project: TestProject;
let other: TestProject;

beforeAll(async () => {
  svc = await startAuth();
  api = apiOf(svc.app);
  project = await svc.createProject();
  other = await svc.createProject();
});
afterAll(() => svc.close());

describe('GET /v1/me', () => {
  it('when the bearer token is valid, then 200 with every user field', async () => {
    const { user, accessToken } = await registerUser(api, project);
    const res = await api.get('/me', { bearer: accessToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['user']);
    expect(Object.keys(res.body.user).sort()).toEqual(
      [
        'avatarUrl',
        'createdAt',
        'email',
        'emailVerified',
        'id',
        'isAnonymous',
        'lastLogin',
        'metadata',
        'phoneNumber',
        'phoneVerified',
        'updatedAt',
        'username',
      ].sort(),
    );
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email });
  });

  it.each([
    ['missing', undefined],
    ['garbage', 'not.a.jwt'],
  ])('when the bearer token is %s, then 401 INVALID_SESSION', async (_case, token) => {
    const res = await api.get('/me', { bearer: token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
  });

  it('when the token has expired, then 401', async () => {
    const { user } = await registerUser(api, project);
    const expired = jwt.sign(
      { tid: project.tenantId, pid: project.projectId, email: user.email, ver: 0, typ: 'access' },
      svc.deps.jwt.privateKey!,
      { algorithm: 'RS256', expiresIn: -10, subject: user.id, issuer: 'platform-auth' },
    );
    expect((await api.get('/me', { bearer: expired })).status).toBe(401);
  });

  it("when a token of project A names project B's user, then 401 and no data of B", async () => {
    const victim = await registerUser(api, other);
    const forged = project.accessToken({ userId: victim.user.id, email: victim.user.email });
    const res = await api.get('/me', { bearer: forged });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
    expect(JSON.stringify(res.body)).not.toContain(victim.user.email);
  });

  it("when project A's token comes with project B's keys, then 401", async () => {
    const { accessToken } = await registerUser(api, project);
    const res = await api.get('/me', { bearer: accessToken, headers: other.headers });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect((await api.get('/me', { bearer: accessToken, headers: project.headers })).status).toBe(200);
  });

  it('when a validly signed token names a user id that is not a UUID, then 401 (not a 500)', async () => {
    const res = await api.get('/me', { bearer: project.accessToken({ userId: 'not-a-uuid', email: 'x@example.com' }) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
  });

  it('when the user no longer exists, then 401 INVALID_SESSION', async () => {
    const { user, accessToken } = await registerUser(api, project);
    await svc.deps.db('users').where({ id: user.id }).delete();
    const res = await api.get('/me', { bearer: accessToken });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
  });
});

describe('PATCH /v1/me', () => {
  it('when fields are sent, then they change and metadata is merged key by key', async () => {
    const email = uniqueEmail();
    const reg = await api.post('/register', {
      headers: project.headers,
      body: { email, password: 'a good password', metadata: { theme: 'dark', lang: 'en', nested: { a: 1 } } },
    });
    const res = await api.patch('/me', {
      bearer: reg.body.accessToken,
      body: {
        phoneNumber: '+44 20 7946 0000',
        avatarUrl: 'https://cdn.example.com/a.png',
        username: 'ada',
        metadata: { lang: 'fr', nested: { b: 2 }, added: true },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      phoneNumber: '+44 20 7946 0000',
      phoneVerified: false,
      avatarUrl: 'https://cdn.example.com/a.png',
      username: 'ada',
      metadata: { theme: 'dark', lang: 'fr', nested: { b: 2 }, added: true },
    });
    expect(Date.parse(res.body.user.updatedAt)).toBeGreaterThanOrEqual(Date.parse(reg.body.user.updatedAt));
    expect((await api.get('/me', { bearer: reg.body.accessToken })).body).toEqual(res.body);
  });

  it('when only one field is sent, then the others are kept', async () => {
    const { accessToken } = await registerUser(api, project);
    await api.patch('/me', { bearer: accessToken, body: { username: 'first', metadata: { keep: 1 } } });
    const res = await api.patch('/me', { bearer: accessToken, body: { avatarUrl: 'https://x.example.com/p.png' } });
    expect(res.body.user).toMatchObject({
      username: 'first',
      metadata: { keep: 1 },
      avatarUrl: 'https://x.example.com/p.png',
    });
  });

  it('when a field is null, then it is cleared', async () => {
    const { accessToken } = await registerUser(api, project);
    await api.patch('/me', { bearer: accessToken, body: { username: 'temp' } });
    const res = await api.patch('/me', { bearer: accessToken, body: { username: null } });
    expect(res.body.user.username).toBeNull();
  });

  it('when the phone number changes after verification, then phoneVerified goes back to false', async () => {
    const { user, accessToken } = await registerUser(api, project);
    await api.patch('/me', { bearer: accessToken, body: { phoneNumber: '+1 555 0100' } });
    await svc.deps.db('users').where({ id: user.id }).update({ phone_verified: true });
    const same = await api.patch('/me', { bearer: accessToken, body: { phoneNumber: '+1 555 0100' } });
    expect(same.body.user.phoneVerified).toBe(true);
    const changed = await api.patch('/me', { bearer: accessToken, body: { phoneNumber: '+1 555 0199' } });
    expect(changed.body.user.phoneVerified).toBe(false);
  });

  it.each([
    ['avatarUrl is not a URL', { avatarUrl: 'not a url' }],
    // RFC 3986 accepts it; the WHATWG parser that reads URLs everywhere else does not.
    ['avatarUrl is a URL the WHATWG parser cannot read', { avatarUrl: 'https://xn--/' }],
    ['metadata is a string', { metadata: 'x' }],
    ['username is a number', { username: 5 }],
  ])('when %s, then 400 VALIDATION_ERROR', async (_case, body) => {
    const { accessToken } = await registerUser(api, project);
    const res = await api.patch('/me', { bearer: accessToken, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when metadata nests past the JSON depth limit, at register or PATCH /me, then 400 names it and nothing is stored', async () => {
    const deep = `${'{"a":'.repeat(4_000)}1${'}'.repeat(4_000)}`;
    const email = uniqueEmail('deep');
    const registered = await api.post('/register', {
      headers: { ...project.headers, 'content-type': 'application/json' },
      body: `{"email":"${email}","password":"${PASSWORD}","metadata":${deep}}`,
    });
    expect(registered.status).toBe(400);
    expect(registered.body.error.details).toEqual([
      { path: 'metadata', message: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
    const { accessToken } = await registerUser(api, project, email);
    const patched = await api.patch('/me', {
      bearer: accessToken,
      headers: { 'content-type': 'application/json' },
      body: `{"metadata":${deep}}`,
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details[0].path).toBe('metadata');
    expect((await api.get('/me', { bearer: accessToken })).body.user.metadata).toEqual({});
  });

  it('when unknown fields are sent, then they are ignored, never stored', async () => {
    const { accessToken } = await registerUser(api, project);
    const res = await api.patch('/me', {
      bearer: accessToken,
      body: { email: 'evil@example.com', emailVerified: true, isAdmin: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.emailVerified).toBe(false);
    expect(res.body.user.email).not.toBe('evil@example.com');
  });

  it('when there is no bearer token, then 401', async () => {
    expect((await api.patch('/me', { body: { username: 'x' } })).status).toBe(401);
  });
});

describe('DELETE /v1/me', () => {
  async function userWithMetadata() {
    const session = await registerUser(api, project);
    await api.patch('/me', { bearer: session.accessToken, body: { metadata: { a: 1, b: 2, c: 3 } } });
    return session;
  }

  it('when keys are sent with null, then exactly those keys are removed', async () => {
    const { accessToken } = await userWithMetadata();
    const res = await api.delete('/me', {
      bearer: accessToken,
      body: { metadata: { a: null, c: null, missing: null } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: expect.objectContaining({ metadata: { b: 2 } }) });
  });

  it('when metadata is an empty object, then all metadata is removed', async () => {
    const { accessToken } = await userWithMetadata();
    const res = await api.delete('/me', { bearer: accessToken, body: { metadata: {} } });
    expect(res.body.user.metadata).toEqual({});
  });

  it('when the body is an empty object, then all metadata is removed', async () => {
    const { accessToken } = await userWithMetadata();
    const res = await api.delete('/me', { bearer: accessToken, body: {} });
    expect(res.body.user.metadata).toEqual({});
  });

  it('when metadata is not an object, then 400 and nothing changes', async () => {
    const { accessToken } = await userWithMetadata();
    expect((await api.delete('/me', { bearer: accessToken, body: { metadata: ['a'] } })).status).toBe(400);
    expect((await api.get('/me', { bearer: accessToken })).body.user.metadata).toEqual({ a: 1, b: 2, c: 3 });
  });

  it('when there is no bearer token, then 401', async () => {
    expect((await api.delete('/me', { body: { metadata: {} } })).status).toBe(401);
  });
});

describe('GET /v1/users/by-email', () => {
  it('when the user exists in the project, then 200 with the lookup fields', async () => {
    const { user } = await registerUser(api, project);
    const res = await api.get('/users/by-email', {
      headers: project.headers,
      query: { email: user.email.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: user.id,
      email: user.email,
      tenantId: project.tenantId,
      projectId: project.projectId,
      isAdmin: false,
      isCoreAccount: false,
      emailVerified: false,
      phoneNumber: null,
      phoneVerified: false,
      avatarUrl: null,
      username: null,
      metadata: {},
      lastLogin: null,
    });
  });

  it('when the email is missing or invalid, then 400', async () => {
    expect((await api.get('/users/by-email', { headers: project.headers })).status).toBe(400);
    expect((await api.get('/users/by-email', { headers: project.headers, query: { email: 'nope' } })).status).toBe(400);
  });

  it('when the keys are missing or wrong, then 401', async () => {
    expect((await api.get('/users/by-email', { query: { email: 'a@example.com' } })).status).toBe(401);
    const wrong = { ...project.headers, 'x-secret-key': 'sk_wrong' };
    expect((await api.get('/users/by-email', { headers: wrong, query: { email: 'a@example.com' } })).status).toBe(401);
  });

  it('when the user is unknown, then 404', async () => {
    const res = await api.get('/users/by-email', { headers: project.headers, query: { email: uniqueEmail('nobody') } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('when the user belongs to another project, then 404 with these keys', async () => {
    const { user } = await registerUser(api, other);
    const res = await api.get('/users/by-email', { headers: project.headers, query: { email: user.email } });
    expect(res.status).toBe(404);
  });
});
