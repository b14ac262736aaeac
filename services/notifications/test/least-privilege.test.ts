/**
 * The service as deployed with least privilege (docker-compose.yml, k8s/): migrations run as
 * the owner, `admin grant-service-role` makes the service's own login, and the service then
 * starts and serves with that login alone.
 */
import { randomBytes } from 'node:crypto';
import { grantServiceRole, platformMigrations, SecretBox } from '@platform/directory';
import { createDb, migrateLatest } from '@platform/db';
import { InProcessBus } from '@platform/events';
import {
  allMigrations,
  startService,
  type Infrastructure,
  type RunningService,
  loadPlatformConfig,
} from '@platform/runtime';
import { createTestDatabase, createTestProject, testJwtKeys, type TestProject } from '@platform/testkit';
import { createLogger } from '@platform/http';
import { notificationsService } from '../src';
import { api } from './support/notifications-test-service';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

const role = `notifications_${randomBytes(4).toString('hex')}`;
const otherRole = `${role}_other`;
const password = randomBytes(12).toString('hex');
const logger = createLogger('notifications', process.env.TEST_LOG_LEVEL ?? 'silent');
const secrets = new SecretBox(randomBytes(32));

let platform: TestDatabase;
let own: TestDatabase;
let other: TestDatabase;
let project: TestProject;
let infra: Infrastructure;
let running: RunningService;

/** The same database, reached with the service's login instead of the owner's. */
const asService = (database: TestDatabase) => {
  const url = new URL(database.url);
  url.username = role;
  url.password = password;
  return url.toString();
};

beforeAll(async () => {
  [platform, own, other] = await Promise.all(['platform', 'notifications', 'other'].map((p) => createTestDatabase(p)));
  // what the migration jobs do, as the owner
  const ownerPlatform = createDb({ url: platform.url, poolMax: 1 });
  const ownerService = createDb({ url: own.url, poolMax: 1 });
  await migrateLatest(ownerPlatform, platformMigrations);
  await migrateLatest(ownerService, allMigrations(notificationsService));
  project = await createTestProject(ownerPlatform, secrets);
  await Promise.all([ownerPlatform.destroy(), ownerService.destroy()]);
  await grantServiceRole(own.url, { role, password, database: own.name, platformDatabase: platform.name });
  // another service's database, closed to everyone but its own login
  await grantServiceRole(other.url, {
    role: otherRole,
    password: 'other-password',
    database: other.name,
    platformDatabase: platform.name,
  });

  const config = loadPlatformConfig({ ...process.env, NODE_ENV: 'test', SHUTDOWN_READINESS_DELAY_MS: '0' });
  const platformDb = createDb({ url: asService(platform), poolMax: 2 });
  const bus = new InProcessBus(logger);
  infra = {
    config,
    databaseUrl: async () => asService(own),
    platformDb,
    bus,
    secrets,
    jwt: testJwtKeys(),
    async close() {
      await bus.close();
      await platformDb.destroy();
    },
  };
  running = await startService(notificationsService, infra, logger, 0);
}, 60_000);

afterAll(async () => {
  await running?.stop();
  await infra?.close();
  await Promise.all([platform, own, other].map((d) => d?.drop()));
  const server = createDb({ url: own.url.replace(/\/[^/]*$/, '/postgres'), poolMax: 1 });
  for (const name of [role, otherRole]) await server.raw('DROP ROLE IF EXISTS ??', [name]);
  await server.destroy();
});

describe('notifications with its own database login', () => {
  it('when it starts with the login grant-service-role made, then it checks its migrations and serves keyed requests', async () => {
    const client = api(running.server, project.headers);
    const created = await client.post('/notifications', { body: { userId: 'ada', title: 'Welcome', message: 'Hi' } });
    expect(created.status).toBe(201);
    const listed = await client.get('/notifications', { query: { userId: 'ada' } });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(created.body.id);
  });

  it("when its login reaches for another service's database, then Postgres refuses the connection", async () => {
    const db = createDb({ url: asService(other), poolMax: 1 });
    try {
      await expect(db.raw('select 1')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await db.destroy();
    }
  });

  it('when its login tries to change its own schema, then Postgres refuses (only the migration job may)', async () => {
    await expect(running.deps.db.raw('create table sneaky (x int)')).rejects.toMatchObject({ code: '42501' });
    await expect(running.deps.platformDb.raw('select * from tenants')).rejects.toMatchObject({ code: '42501' });
  });
});
