/**
 * Every service's migrations go up, come all the way down, and go up again: the `down` halves
 * are real, and a rollback leaves nothing behind that would stop a fresh migrate.
 */
import { platformMigrations } from '@platform/directory';
import { createDb, migrateLatest, migrateRollbackAll, type Migration } from '@platform/db';
import { allMigrations, type ServiceDefinition } from '@platform/runtime';
import { createTestDatabase } from '@platform/testkit';
import { authService } from '@platform/auth';
import { billingService } from '@platform/billing';
import { cmsService } from '@platform/cms';
import { llmService } from '@platform/llm';
import { mailerService } from '@platform/mailer';
import { notificationsService } from '@platform/notifications';

const services: ServiceDefinition[] = [
  authService,
  billingService,
  cmsService,
  llmService,
  mailerService,
  notificationsService,
];
const sets: [string, Migration[]][] = [
  ['platform', platformMigrations],
  ...services.map((s): [string, Migration[]] => [s.name, allMigrations(s)]),
];

describe.each(sets)('%s migrations', (name, migrations) => {
  it('when migrated up, rolled back completely and migrated again, then the schema comes back and nothing is left over', async () => {
    const database = await createTestDatabase(`migrate_${name}`);
    const db = createDb({ url: database.url, poolMax: 2 });
    const tables = async () =>
      (
        await db('pg_tables')
          .where({ schemaname: 'public' })
          .whereNotIn('tablename', ['knex_migrations', 'knex_migrations_lock'])
          .pluck('tablename')
      ).sort();
    try {
      expect(await migrateLatest(db, migrations)).toHaveLength(migrations.length);
      const schema = await tables();
      expect(schema.length).toBeGreaterThan(0);

      await migrateRollbackAll(db, migrations);
      expect(await tables()).toEqual([]);

      await migrateLatest(db, migrations);
      expect(await tables()).toEqual(schema);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
