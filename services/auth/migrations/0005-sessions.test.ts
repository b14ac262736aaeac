import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { allMigrations } from '@platform/runtime';
import { createTestDatabase } from '@platform/testkit';
import { authService } from '../src';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase('auth_migration_sessions');
  db = createDb({ url: database.url, poolMax: 2 });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('migration 0005_sessions', () => {
  it('when refresh-token families exist, then each becomes a session: live while one of its tokens is, ended otherwise', async () => {
    const all = allMigrations(authService);
    await migrateLatest(
      db,
      all.slice(
        0,
        all.findIndex((m) => m.name === '0005_sessions'),
      ),
    );
    const owner = { tenant_id: randomUUID(), project_id: randomUUID() };
    const userId = randomUUID();
    await db('users').insert({ id: userId, ...owner, email: 'a@example.com', password_hash: 'x', token_version: 1 });
    const token = (familyId: string, changes: object) => ({
      id: randomUUID(),
      ...owner,
      user_id: userId,
      family_id: familyId,
      token_hash: randomUUID(),
      token_version: 1,
      expires_at: new Date(Date.now() + 86_400_000),
      ...changes,
    });
    const [live, revoked, oldVersion] = [randomUUID(), randomUUID(), randomUUID()];
    await db('refresh_tokens').insert([
      token(live, { rotated_at: new Date() }),
      token(live, {}),
      token(revoked, { revoked_at: new Date() }),
      token(oldVersion, { token_version: 0 }),
    ]);

    await migrateLatest(db, all);

    const sessions = await db('sessions').where(owner).select('id', 'user_id', 'ended_at');
    const endedOf = (id: string) => sessions.find((s) => s.id === id)?.ended_at;
    expect(sessions).toHaveLength(3);
    expect(endedOf(live)).toBeNull();
    expect(endedOf(revoked)).toBeInstanceOf(Date);
    expect(endedOf(oldVersion)).toBeInstanceOf(Date);
  });
});
