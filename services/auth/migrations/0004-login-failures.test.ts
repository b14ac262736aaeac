import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { allMigrations } from '@platform/runtime';
import { createTestDatabase } from '@platform/testkit';
import { authService } from '../src';
import { emailKey } from '../src/lockout/login-failures.repository';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('auth_migration');
  db = createDb({ url: database.url, poolMax: 2 });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('migration 0004_login_failures', () => {
  it('when users had failures or a lock in force, then they move to login_failures under the hash the service computes', async () => {
    const all = allMigrations(authService);
    const upTo = all.findIndex((m) => m.name === '0004_login_failures');
    await migrateLatest(db, all.slice(0, upTo));
    const tenant = { tenant_id: randomUUID(), project_id: randomUUID() };
    const user = (email: string, changes: object) => ({
      id: randomUUID(),
      ...tenant,
      email,
      password_hash: 'x',
      ...changes,
    });
    const lockedUntil = new Date(Date.now() + 10 * 60_000);
    await db('users').insert([
      user('counting@example.com', { failed_login_count: 3 }),
      user('locked@example.com', { locked_until: lockedUntil }),
      user('lock-over@example.com', { locked_until: new Date(Date.now() - 60_000) }),
      user('clean@example.com', {}),
    ]);

    await migrateLatest(db, all);

    const rows = await db('login_failures').where(tenant).select('email_hash', 'failed_count', 'locked_until');
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        { email_hash: emailKey('counting@example.com'), failed_count: 3, locked_until: null },
        { email_hash: emailKey('locked@example.com'), failed_count: 0, locked_until: lockedUntil },
      ]),
    );
  });
});
