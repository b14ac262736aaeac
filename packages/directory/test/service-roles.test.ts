import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrateLatest } from '@platform/db';
import { createTestDatabase } from '@platform/testkit';
import { platformMigrations } from '../src/platform-migrations';
import { grantServiceRole } from '../src/service-roles';

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

let own: TestDatabase;
let other: TestDatabase;
let platform: TestDatabase;
const role = `svc_${randomBytes(4).toString('hex')}`;
const otherRole = `${role}_other`;
const writerRole = `${role}_writer`;
/** Logins granted side by side, one database each. */
const sideRoles = ['a', 'b', 'c', 'd', 'e', 'f'].map((suffix) => `${role}_${suffix}`);
let sideDatabases: TestDatabase[] = [];

/** A query as the service's login; resolves to the Postgres error code, or 'ok'. */
async function asService(database: TestDatabase, sql: string, login = role): Promise<string> {
  const url = new URL(database.url);
  url.username = login;
  url.password = 'service-password';
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    await client.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

beforeAll(async () => {
  [own, other, platform] = await Promise.all(['own', 'other', 'platform'].map((p) => createTestDatabase(`roles_${p}`)));
  const platformDb = createDb({ url: platform.url, poolMax: 1 });
  await migrateLatest(platformDb, platformMigrations);
  await platformDb.destroy();
  const ownDb = createDb({ url: own.url, poolMax: 1 });
  await ownDb.schema.createTable('widgets', (t) => {
    t.increments('id');
    t.text('name');
  });
  await ownDb.destroy();
  await grantServiceRole(own.url, {
    role,
    password: 'service-password',
    database: own.name,
    platformDatabase: platform.name,
  });
  // The other service gets its own login the same way (which closes its database to everyone else).
  await grantServiceRole(other.url, {
    role: otherRole,
    password: 'other-password',
    database: other.name,
    platformDatabase: platform.name,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([own, other, platform, ...sideDatabases].map((d) => d?.drop()));
  const server = new pg.Client({ connectionString: own.url.replace(/\/[^/]*$/, '/postgres') });
  await server.connect();
  for (const name of [role, otherRole, writerRole, ...sideRoles]) await server.query(`DROP ROLE IF EXISTS ${name}`);
  await server.end();
});

describe('service database roles', () => {
  it("when the service's login uses its own database, then it reads and writes rows there, in tables created later too", async () => {
    expect(await asService(own, "insert into widgets (name) values ('a')")).toBe('ok');
    expect(await asService(own, 'select * from widgets')).toBe('ok');
    const ownDb = createDb({ url: own.url, poolMax: 1 });
    await ownDb.schema.createTable('added_later', (t) => t.text('x'));
    await ownDb.destroy();
    expect(await asService(own, "insert into added_later values ('b')")).toBe('ok');
  });

  it("when the service's login changes the schema of its own database, then it is refused (only migrations may)", async () => {
    expect(await asService(own, 'create table sneaky (x int)')).toBe('42501');
    expect(await asService(own, 'drop table widgets')).toBe('42501');
  });

  it("when the service's login connects to another service's database, then it is refused", async () => {
    expect(await asService(other, 'select 1')).toBe('42501');
  });

  it('when it reads the platform database, then only the key and project columns it needs, and it writes nothing', async () => {
    expect(await asService(platform, 'select public_key, secret_hash, project_id, revoked_at from api_keys')).toBe(
      'ok',
    );
    expect(await asService(platform, 'select id, tenant_id, settings, webhook_secret_enc from projects')).toBe('ok');
    expect(await asService(platform, 'select * from tenants')).toBe('42501');
    expect(await asService(platform, 'select * from projects')).toBe('42501');
    expect(await asService(platform, "update projects set settings = '{}'")).toBe('42501');
    expect(await asService(platform, 'delete from api_keys')).toBe('42501');
    expect(await asService(platform, 'update api_keys set revoked_at = now()')).toBe('42501');
  });

  it("when the console's login is granted as the platform's writer, then it inserts and updates tenants, projects and keys, and deletes nothing", async () => {
    await grantServiceRole(other.url, {
      role: writerRole,
      password: 'service-password',
      database: other.name,
      platformDatabase: platform.name,
      platformWriter: true,
    });
    const asWriter = (sql: string) => asService(platform, sql, writerRole);
    expect(await asWriter("insert into tenants (id, name) values (gen_random_uuid(), 'w')")).toBe('ok');
    expect(await asWriter("update tenants set suspended_at = now() where name = 'w'")).toBe('ok');
    expect(await asWriter('select * from projects')).toBe('ok');
    expect(await asWriter('update api_keys set revoked_at = now()')).toBe('ok');
    expect(await asWriter('delete from api_keys')).toBe('42501');
    expect(await asWriter('delete from tenants')).toBe('42501');
    // the ordinary service login still may not
    expect(await asService(platform, "insert into tenants (id, name) values (gen_random_uuid(), 'x')")).toBe('42501');
  });

  it("when the key check notes a key's last use or reads its tenant's suspension, then the login may do only that", async () => {
    expect(await asService(platform, 'update api_keys set last_used_at = now()')).toBe('ok');
    expect(await asService(platform, 'select id, suspended_at from tenants')).toBe('ok');
    expect(await asService(platform, 'select name from tenants')).toBe('42501');
    expect(await asService(platform, 'update tenants set suspended_at = null')).toBe('42501');
  });

  it("when six services' migration jobs grant their logins at the same moment, then every grant succeeds", async () => {
    sideDatabases = await Promise.all(sideRoles.map((_, i) => createTestDatabase(`roles_side_${i}`)));
    const results = await Promise.allSettled(
      sideRoles.map((name, i) =>
        grantServiceRole(sideDatabases[i].url, {
          role: name,
          password: 'service-password',
          database: sideDatabases[i].name,
          platformDatabase: platform.name,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  }, 60_000);
});
