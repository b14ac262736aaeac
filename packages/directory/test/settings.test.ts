import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createDb, migrateLatest } from '@platform/db';
import { createTestDatabase } from '@platform/testkit';
import { SecretBox } from '@platform/directory';
import { platformMigrations } from '../src/platform-migrations';
import { createProject, setSetting } from '../src/projects';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Knex;
let projectId: string;

beforeAll(async () => {
  database = await createTestDatabase('settings');
  db = createDb({ url: database.url, poolMax: 1 });
  await migrateLatest(db, platformMigrations);
  ({ projectId } = await createProject(db, new SecretBox(randomBytes(32)), { tenant: 'acme', project: 'shop' }));
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('project settings', () => {
  it('when searchLanguage is set to a Postgres text search configuration, then it is stored', async () => {
    expect(await setSetting(db, projectId, 'searchLanguage', 'english')).toEqual({
      settings: { searchLanguage: 'english' },
    });
  });

  it.each([
    ['searchLanguage', 'klingon'],
    ['searchLanguage', 1],
    ['appUrl', 'https://xn--/'],
    ['appUrl', 'ftp://app.example.com'],
    ['appUrl', 'https://exa mple.com'],
    ['allowedOrigins', ['https://xn--']],
    ['allowedOrigins', ['https://app.example.com/']],
    ['allowedOrigins', ['app.example.com']],
  ])('when %s is %j, which its reader could not use, then it is refused and nothing is stored', async (key, value) => {
    await expect(setSetting(db, projectId, key, value)).rejects.toThrow(`Invalid value for ${key}`);
    const stored = await db('projects').where({ id: projectId }).first('settings');
    expect(stored.settings[key]).not.toEqual(value);
  });

  it('when appUrl and allowedOrigins parse as URLs and origins, then they are stored as given', async () => {
    await setSetting(db, projectId, 'appUrl', 'https://app.example.com/base');
    const { settings } = await setSetting(db, projectId, 'allowedOrigins', [
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    expect(settings).toMatchObject({
      appUrl: 'https://app.example.com/base',
      allowedOrigins: ['https://app.example.com', 'http://localhost:3000'],
    });
  });
});
