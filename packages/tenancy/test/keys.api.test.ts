import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import request from 'supertest';
import type { Knex } from 'knex';
import {
  createProject,
  PlatformDirectory,
  platformMigrations,
  revokeKey,
  SecretBox,
  type CreatedProject,
} from '@platform/directory';
import { createDb, migrateLatest } from '@platform/db';
import { createTestDatabase, keyHeaders } from '@platform/testkit';
import { createHttpApp, createLogger } from '@platform/http';
import { requireKeys } from '../src';

const secrets = new SecretBox(randomBytes(32));
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let queries = 0;

function appWith(directory: PlatformDirectory) {
  const routes = Router();
  routes.get('/whoami', requireKeys(directory), (req, res) => {
    res.json({ tenantId: req.tenant!.tenantId, projectId: req.tenant!.projectId });
  });
  return createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
  });
}

const headersOf = keyHeaders;

beforeAll(async () => {
  database = await createTestDatabase('keys');
  db = createDb({ url: database.url, poolMax: 2 });
  await migrateLatest(db, platformMigrations);
  db.on('query', () => queries++);
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('key headers', () => {
  let a: CreatedProject;
  let b: CreatedProject;
  let directory: PlatformDirectory;

  beforeAll(async () => {
    a = await createProject(db, secrets, { tenant: `t-${randomBytes(4).toString('hex')}`, project: 'a' });
    b = await createProject(db, secrets, { tenant: `t-${randomBytes(4).toString('hex')}`, project: 'b' });
    directory = new PlatformDirectory(db, secrets);
  });

  it('when all four headers match one project, then the request passes with that tenant', async () => {
    const res = await request(appWith(directory)).get('/v1/whoami').set(headersOf(a));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tenantId: a.tenantId, projectId: a.projectId });
  });

  it.each(['x-api-key', 'x-secret-key', 'x-tenant-id', 'x-project-id'])(
    'when %s is missing, then 401 UNAUTHORIZED',
    async (header) => {
      const headers: Record<string, string> = headersOf(a);
      delete headers[header];
      const res = await request(appWith(directory)).get('/v1/whoami').set(headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'UNAUTHORIZED', message: 'Invalid or missing API credentials' },
      });
    },
  );

  it.each(['x-api-key', 'x-secret-key', 'x-tenant-id', 'x-project-id'])(
    'when %s is wrong, then 401 with the same message as any other mismatch',
    async (header) => {
      const headers: Record<string, string> = { ...headersOf(a), [header]: `${headersOf(a)[header as 'x-api-key']}x` };
      const res = await request(appWith(directory)).get('/v1/whoami').set(headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid or missing API credentials' });
    },
  );

  it("when project A's keys come with project B's id, then 401", async () => {
    const res = await request(appWith(directory))
      .get('/v1/whoami')
      .set({ ...headersOf(a), 'x-tenant-id': b.tenantId, 'x-project-id': b.projectId });
    expect(res.status).toBe(401);
  });

  it('when header names come in other cases, then they are still recognised', async () => {
    const res = await request(appWith(directory)).get('/v1/whoami').set({
      'X-API-KEY': a.apiKey,
      'X-Secret-Key': a.secretKey,
      'X-TENANT-ID': a.tenantId,
      'x-Project-Id': a.projectId,
    });
    expect(res.status).toBe(200);
  });

  it('when a valid request was cached, then the next one makes no database query', async () => {
    const fresh = new PlatformDirectory(db, secrets);
    const app = appWith(fresh);
    await request(app).get('/v1/whoami').set(headersOf(b)).expect(200);
    const before = queries;
    for (let i = 0; i < 5; i++) await request(app).get('/v1/whoami').set(headersOf(b)).expect(200);
    expect(queries).toBe(before);
  });

  it('when a bad public key repeats, then it is answered from the negative cache', async () => {
    const fresh = new PlatformDirectory(db, secrets);
    const app = appWith(fresh);
    const bad = { ...headersOf(a), 'x-api-key': 'pk_does_not_exist' };
    await request(app).get('/v1/whoami').set(bad).expect(401);
    const before = queries;
    for (let i = 0; i < 5; i++) await request(app).get('/v1/whoami').set(bad).expect(401);
    expect(queries).toBe(before);
  });

  it('when a key is revoked, then it is refused once the cache TTL has passed', async () => {
    const c = await createProject(db, secrets, { tenant: `t-${randomBytes(4).toString('hex')}`, project: 'c' });
    const shortLived = new PlatformDirectory(db, secrets, { ttlMs: 100 });
    const app = appWith(shortLived);
    await request(app).get('/v1/whoami').set(headersOf(c)).expect(200);
    await revokeKey(db, c.apiKey);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const res = await request(app).get('/v1/whoami').set(headersOf(c));
    expect(res.status).toBe(401);
  });
});
