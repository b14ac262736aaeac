import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { sendJson, startHttpStub, testJwtKeys, type HttpStub } from '@platform/testkit';
import { signAccessToken } from '@platform/tenancy';
import { ReservedProject } from '../src/accounts/reserved-project';
import { invitationToken, signIn, startConsole, type Console } from './console-harness';

let auth: HttpStub;

beforeAll(async () => {
  // Authentication's wire format, as far as the console relies on it: it answers, the console passes the answer on.
  auth = await startHttpStub((req, res) => {
    if (req.path === '/v1/login') return sendJson(res, 200, { accessToken: 'a', refreshToken: 'r', user: {} });
    if (req.path === '/v1/register')
      return sendJson(res, 201, { user: { email: (req.body as { email: string }).email } });
    return sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'no' } });
  });
});
afterAll(() => auth.close());

describe('accounts', () => {
  let svc: Console;
  beforeAll(async () => {
    svc = await startConsole({ CONSOLE_AUTH_URL: `${auth.url}/v1` });
  });
  afterAll(() => svc.close());

  it("when a member signs in, then the console asks Authentication with the reserved project's keys and passes its answer on", async () => {
    const res = await request(svc.app).post('/v1/account/sign-in').send({ email: 'ada@example.com', password: 'pw' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accessToken: 'a', refreshToken: 'r', user: {} });
    const reserved = await svc.parts.shared.reserved.ensure();
    const sent = auth.requests.find((r) => r.path === '/v1/login')!;
    expect(sent.headers).toMatchObject({
      'x-api-key': reserved.apiKey,
      'x-secret-key': reserved.secretKey,
      'x-tenant-id': reserved.tenantId,
      'x-project-id': reserved.projectId,
    });
    expect(sent.body).toEqual({ email: 'ada@example.com', password: 'pw' });
  });

  it('when an access token of another project (same platform key) is sent, then the console refuses it with 401', async () => {
    const token = signAccessToken(
      {
        userId: randomUUID(),
        email: 'x@example.com',
        tokenVersion: 0,
        tenantId: randomUUID(),
        projectId: randomUUID(),
      },
      testJwtKeys().privateKey,
    );
    const res = await request(svc.app).get('/v1/me').set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
    const none = await request(svc.app).get('/v1/organisations');
    expect(none.status).toBe(401);
  });

  it('when a reserved-project token is sent, then /me names the member', async () => {
    const member = await signIn(svc);
    const res = await request(svc.app).get('/v1/me').set(member.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: member.userId, email: member.email, operator: false, organisations: [] });
  });

  it('when the console starts again on the same databases, then it keeps the same reserved project', async () => {
    const first = await svc.parts.shared.reserved.ensure();
    const again = await new ReservedProject(svc.deps.db, svc.deps.platformDb, svc.deps.secrets).ensure();
    expect(again).toEqual(first);
  });
});

describe('invite-only sign-up', () => {
  let svc: Console;
  beforeAll(async () => {
    svc = await startConsole({ CONSOLE_AUTH_URL: `${auth.url}/v1`, CONSOLE_SIGNUP: 'invite' });
  });
  afterAll(() => svc.close());

  it('when an address without an invitation signs up, then it is 403 and Authentication is not asked', async () => {
    const before = auth.requests.length;
    const res = await request(svc.app)
      .post('/v1/account/sign-up')
      .send({ email: 'nobody@example.com', password: 'pw' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(auth.requests.length).toBe(before);
  });

  it('when an invited address signs up, then it goes through', async () => {
    const owner = await signIn(svc);
    const org = (await request(svc.app).post('/v1/organisations').set(owner.auth).send({ name: 'Closed' })).body.id;
    const invited = await request(svc.app)
      .post(`/v1/organisations/${org}/invitations`)
      .set(owner.auth)
      .send({ email: 'Invited@Example.com', role: 'viewer' });
    await invitationToken(invited.body.id);
    const res = await request(svc.app)
      .post('/v1/account/sign-up')
      .send({ email: 'invited@example.com', password: 'pw' });
    expect(res.status).toBe(201);
  });
});

describe('sign-in rate limit', () => {
  it('when one address signs in more often than the limit, then it gets 429', async () => {
    const svc = await startConsole({ CONSOLE_AUTH_URL: `${auth.url}/v1`, CONSOLE_SIGNIN_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (await request(svc.app).post('/v1/account/sign-in').send({ email: 'a@example.com', password: 'x' })).status,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await svc.close();
    }
  });
});
