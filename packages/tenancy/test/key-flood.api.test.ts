import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import request from 'supertest';
import type { Knex } from 'knex';
import {
  createProject,
  PlatformDirectory,
  platformMigrations,
  SecretBox,
  type CreatedProject,
} from '@platform/directory';
import { createDb, migrateLatest } from '@platform/db';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, keyHeaders, requestFrom, testJwtKeys, waitFor } from '@platform/testkit';
import { createHttpApp, createLogger, listenHttp } from '@platform/http';
import { refuseFloodingAddresses, requireBearer, requireKeys, signAccessToken, type KeyCheckLimits } from '../src';

const secrets = new SecretBox(randomBytes(32));
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let project: CreatedProject;
let queries = 0;
let running = 0;
let mostAtOnce = 0;

const jwtKeys = testJwtKeys();

function appWith(directory: PlatformDirectory, refusalHolds = { maxHoldMs: 0, perOffender: 0, total: 0 }) {
  const routes = Router();
  routes.get('/me', requireBearer(jwtKeys.publicKey), (req, res) => {
    res.json({ userId: req.auth!.userId });
  });
  routes.get('/whoami', requireKeys(directory), (req, res) => {
    res.json({ projectId: req.tenant!.projectId });
  });
  routes.post('/echo', requireKeys(directory), (req, res) => {
    res.json({ received: Object.keys(req.body as object).length });
  });
  return createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
    beforeBody: [refuseFloodingAddresses(directory, { accessTokenKey: jwtKeys.publicKey })],
    refusalHolds,
  });
}

const directoryWith = (limits: Partial<KeyCheckLimits>) => new PlatformDirectory(db, secrets, { keyChecks: limits });
const bogus = () => ({ ...keyHeaders(project), 'x-api-key': `pk_${randomBytes(12).toString('hex')}` });

beforeAll(async () => {
  database = await createTestDatabase('keyflood');
  db = createDb({ url: database.url, poolMax: 4 });
  await migrateLatest(db, platformMigrations);
  project = await createProject(db, secrets, { tenant: `t-${randomBytes(4).toString('hex')}`, project: 'p' });
  db.on('query', () => {
    queries++;
    mostAtOnce = Math.max(mostAtOnce, ++running);
  });
  const done = () => running--;
  db.on('query-response', done);
  db.on('query-error', done);
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('bogus keys', () => {
  it('when an address has used up its failed checks, then any credential form, or none, gets 429 before any query, and a valid access token still passes', async () => {
    const app = appWith(directoryWith({ failuresPerAddress: 3 }));
    for (let i = 0; i < 3; i++) expect((await request(app).get('/v1/whoami').set(bogus())).status).toBe(401);
    const before = queries;
    const unknownSingle = `Bearer pk_${randomBytes(12).toString('hex')}.sk_${randomBytes(12).toString('hex')}`;
    for (const headers of [{}, { authorization: unknownSingle }, { authorization: 'Bearer made.up.token' }]) {
      const refused = await request(app)
        .post('/v1/echo')
        .set(headers)
        .set('content-type', 'application/json')
        .send('{"not json');
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
    }
    expect(queries).toBe(before);
    const token = signAccessToken(
      {
        userId: 'u1',
        tenantId: project.tenantId,
        projectId: project.projectId,
        email: 'a@example.com',
        tokenVersion: 0,
      },
      jwtKeys.privateKey,
    );
    const me = await request(app).get('/v1/me').set('authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ userId: 'u1' });
  });

  it('when an address has used up its failed checks, then its unknown keys get 429 with no query and a valid cached key still passes', async () => {
    const app = appWith(directoryWith({ failuresPerAddress: 3 }));
    expect((await request(app).get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await request(app).get('/v1/whoami').set(bogus())).status).toBe(401);
    const before = queries;
    const refused = await request(app).get('/v1/whoami').set(bogus());
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(queries).toBe(before);
    expect((await request(app).get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
  });

  it('when an address has used up its failed checks, then its unknown keys get 429 before their body is read, and a valid key still sends its body', async () => {
    const app = appWith(directoryWith({ failuresPerAddress: 3 }));
    const body = JSON.stringify({ a: 1, b: 2 });
    const post = (headers: Record<string, string>, payload: string) =>
      request(app).post('/v1/echo').set(headers).set('content-type', 'application/json').send(payload);
    expect((await post(keyHeaders(project), body)).body).toEqual({ received: 2 });
    for (let i = 0; i < 3; i++) expect((await post(bogus(), body)).status).toBe(401);
    // Malformed JSON answers 400 once parsed: a 429 shows the parser never ran.
    const refused = await post(bogus(), '{"not json');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect((await post(keyHeaders(project), body)).body).toEqual({ received: 2 });
  });

  it("when a valid key's cache entry has expired while its address is over the failed-check limit, then it is looked up again and passes", async () => {
    // A zero TTL: the key is never served from the cache, as after its entry has expired.
    const directory = new PlatformDirectory(db, secrets, { ttlMs: 0, keyChecks: { failuresPerAddress: 3 } });
    const app = appWith(directory);
    expect((await request(app).get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await request(app).get('/v1/whoami').set(bogus())).status).toBe(401);
    expect((await request(app).get('/v1/whoami').set(bogus())).status).toBe(429);
    expect((await request(app).get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
  });

  it('when an address over its failed-check limit keeps trying, then each 429 is held for the hold, a valid key from it meanwhile passes at once, and refusals beyond the bound go at once with the connection closed', async () => {
    const holdMs = 1_500;
    const app = appWith(directoryWith({ failuresPerAddress: 3 }), { maxHoldMs: holdMs, perOffender: 2, total: 100 });
    const server = app.listen(0);
    try {
      const agent = request(server);
      expect((await agent.get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await agent.get('/v1/whoami').set(bogus())).status).toBe(401);
      const started = Date.now();
      const held = [0, 1].map(() =>
        agent
          .get('/v1/whoami')
          .set(bogus())
          .then((res) => ({ res, ms: Date.now() - started })),
      );
      const valid = await agent.get('/v1/whoami').set(keyHeaders(project));
      expect(valid.status).toBe(200);
      const validMs = Date.now() - started;
      const beyond = await waitFor(async () => {
        const at = Date.now();
        const res = await agent.get('/v1/whoami').set(bogus());
        return Date.now() - at < holdMs / 2 && res;
      });
      expect(beyond.status).toBe(429);
      expect(beyond.headers.connection).toBe('close');
      for (const { res, ms } of await Promise.all(held)) {
        expect(res.status).toBe(429);
        expect(res.body.error.code).toBe('RATE_LIMITED');
        expect(ms).toBeGreaterThanOrEqual(holdMs - 50);
        expect(ms).toBeGreaterThan(validMs);
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(0);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('when a flood of unknown keys overfills the unknown-key cache, then a valid key is still answered from the cache', async () => {
    const directory = directoryWith({ failuresPerAddress: 1e9, unknownKeysCached: 5 });
    const app = appWith(directory);
    expect((await request(app).get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await request(app).get('/v1/whoami').set(bogus())).status).toBe(401);
    const before = queries;
    expect((await request(app).get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
    expect(queries).toBe(before);
  });

  it('when many unknown keys arrive at once, then at most the lookup limit queries at once, the excess gets 429 and a valid key passes', async () => {
    const app = appWith(directoryWith({ failuresPerAddress: 1e9, lookupConcurrency: 1, lookupQueue: 10 }));
    mostAtOnce = 0;
    const flood = Array.from({ length: 40 }, () => request(app).get('/v1/whoami').set(bogus()));
    const statuses = (await Promise.all(flood)).map((res) => res.status);
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
    expect(mostAtOnce).toBe(1);
    expect((await request(app).get('/v1/whoami').set(keyHeaders(project))).status).toBe(200);
  });
});

describe('failed key checks per address, against a dual-stack listener', () => {
  it('when one IPv4 address floods unknown keys, then a key never seen before works from another address', async () => {
    const server = await listenHttp(appWith(directoryWith({ failuresPerAddress: 3 })), 0, '::');
    const { port } = server.address() as AddressInfo;
    try {
      const from = (localAddress: string, headers: Record<string, string>) =>
        requestFrom({ port, localAddress, path: '/v1/whoami', headers });
      for (let i = 0; i < 3; i++) expect((await from('127.0.0.2', bogus())).status).toBe(401);
      expect((await from('127.0.0.2', bogus())).status).toBe(429);
      const fresh = await createProject(db, secrets, { tenant: `t-${randomBytes(4).toString('hex')}`, project: 'p' });
      const res = await from('127.0.0.3', keyHeaders(fresh));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ projectId: fresh.projectId });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
