import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { sendJson, startHttpStub, testJwtKeys, type HttpStub } from '@platform/testkit';
import { signAccessToken } from '@platform/tenancy';
import { createOperator } from '../src';
import { ReservedProject } from '../src/accounts/reserved-project';
import { invitationToken, signIn, startConsole, type Console } from './support/console-harness';

let auth: HttpStub;
/** The bearer headers whose user has verified their address, as Authentication's GET /me would say. */
const verified = new Set<string>();

beforeAll(async () => {
  // Authentication's wire format, as far as the console relies on it: it answers, the console passes the answer on.
  auth = await startHttpStub((req, res) => {
    if (req.path === '/v1/login') return sendJson(res, 200, { accessToken: 'a', refreshToken: 'r', user: {} });
    if (req.method === 'GET' && req.path === '/v1/me')
      return sendJson(res, 200, { user: { emailVerified: verified.has(String(req.headers.authorization)) } });
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

describe('operators are users, not addresses', () => {
  let svc: Console;
  beforeAll(async () => {
    svc = await startConsole({ CONSOLE_AUTH_URL: `${auth.url}/v1` });
  });
  afterAll(() => svc.close());

  const cli = {
    actorId: null,
    actorEmail: 'bootstrap',
    clientAddress: null,
    userAgent: 'pnpm admin',
    source: 'cli',
  } as const;
  const operatorRoute = (who: { auth: { authorization: string } }) =>
    request(svc.app).get('/v1/operator/organisations').set(who.auth);

  it("when someone signs up with an operator's address before the operator and does not verify it, then they get no operator rights", async () => {
    const email = `ops-${randomUUID()}@example.com`;
    await createOperator(svc.deps.db, cli, email);
    const squatter = await signIn(svc, email);
    const refused = await operatorRoute(squatter);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await request(svc.app).get('/v1/me').set(squatter.auth)).body.operator).toBe(false);
    const suspend = await request(svc.app)
      .post(`/v1/operator/organisations/${randomUUID()}/suspension`)
      .set(squatter.auth)
      .send({ reason: 'x' });
    expect(suspend.status).toBe(403);
  });

  it('when the address is verified, then its user is the operator from then on, and another user with that address is not', async () => {
    const email = `ops-${randomUUID()}@example.com`;
    await createOperator(svc.deps.db, cli, email);
    const operator = await signIn(svc, email);
    verified.add(operator.auth.authorization);
    expect((await operatorRoute(operator)).status).toBe(200);
    expect((await request(svc.app).get('/v1/me').set(operator.auth)).body.operator).toBe(true);

    // A later account with the same address (even a verified one) is someone else.
    const other = await signIn(svc, email);
    verified.add(other.auth.authorization);
    expect((await operatorRoute(other)).status).toBe(403);
    expect((await operatorRoute(operator)).status).toBe(200);
  });

  it('when the command line names the user, then only that user is the operator, verified or not', async () => {
    const email = `ops-${randomUUID()}@example.com`;
    const operator = await signIn(svc, email);
    await createOperator(svc.deps.db, cli, email, operator.userId);
    expect((await operatorRoute(operator)).status).toBe(200);
    const other = await signIn(svc, email);
    verified.add(other.auth.authorization);
    expect((await operatorRoute(other)).status).toBe(403);
  });
});
