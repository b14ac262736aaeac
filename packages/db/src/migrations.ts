import type { Knex } from 'knex';

/** One schema change, up and down. Listed explicitly so that bundled builds carry them. */
export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

class ListMigrationSource implements Knex.MigrationSource<Migration> {
  constructor(private readonly migrations: Migration[]) {}
  async getMigrations(): Promise<Migration[]> {
    return this.migrations;
  }
  getMigrationName(migration: Migration): string {
    return migration.name;
  }
  async getMigration(migration: Migration): Promise<Knex.Migration> {
    return { up: migration.up, down: migration.down };
  }
}

/** Brings the database up to the newest migration; safe to run from several processes at once. */
export async function migrateLatest(db: Knex, migrations: Migration[]): Promise<string[]> {
  const names = new Set<string>();
  for (const m of migrations) {
    if (names.has(m.name)) throw new Error(`duplicate migration name ${m.name}`);
    names.add(m.name);
  }
  const [, applied] = (await db.migrate.latest({ migrationSource: new ListMigrationSource(migrations) })) as [
    number,
    string[],
  ];
  return applied;
}

export async function migrateRollbackAll(db: Knex, migrations: Migration[]): Promise<void> {
  await db.migrate.rollback({ migrationSource: new ListMigrationSource(migrations) }, true);
}
