import type { Migration } from '@platform/db';

/** The platform database: tenants, their projects and the projects' keys. */
export const platformMigrations: Migration[] = [
  {
    name: '0001_tenants_projects_keys',
    async up(db) {
      await db.schema.createTable('tenants', (t) => {
        t.uuid('id').primary();
        t.text('name').notNullable().unique();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.schema.createTable('projects', (t) => {
        t.uuid('id').primary();
        t.uuid('tenant_id').notNullable().references('tenants.id').onDelete('CASCADE');
        t.text('name').notNullable();
        t.jsonb('settings').notNullable().defaultTo('{}');
        // Signs the project's outbound webhooks; encrypted under MASTER_KEY.
        t.text('webhook_secret_enc').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.unique(['tenant_id', 'name']);
      });
      await db.schema.createTable('api_keys', (t) => {
        t.uuid('id').primary();
        t.uuid('project_id').notNullable().references('projects.id').onDelete('CASCADE');
        t.text('public_key').notNullable().unique();
        // SHA-256 of the secret key: the keys are long random values, so a slow hash adds nothing.
        t.text('secret_hash').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('revoked_at', { useTz: true });
        t.index(['project_id']);
      });
    },
    async down(db) {
      await db.schema.dropTable('api_keys');
      await db.schema.dropTable('projects');
      await db.schema.dropTable('tenants');
    },
  },
  {
    name: '0002_control_plane',
    async up(db) {
      // Organisations made in the console: a display name beside the unique technical name, and a
      // suspension the key check honours.
      await db.raw(`alter table tenants
        add column display_name text,
        add column suspended_at timestamptz,
        add column suspension_reason text`);
      // A deleted project keeps its row (its keys revoked) while the services erase its data.
      await db.raw('alter table projects add column deleted_at timestamptz');
      await db.raw(`alter table api_keys
        add column name text not null default 'default',
        add column created_by text,
        add column expires_at timestamptz,
        add column last_used_at timestamptz`);
    },
    async down(db) {
      await db.raw(`alter table api_keys drop column name, drop column created_by, drop column expires_at,
        drop column last_used_at`);
      await db.raw('alter table projects drop column deleted_at');
      await db.raw(
        'alter table tenants drop column display_name, drop column suspended_at, drop column suspension_reason',
      );
    },
  },
  {
    name: '0003_tenant_deletion',
    async up(db) {
      // A deleted organisation keeps its row (its projects deleted, their keys revoked) while the
      // services erase its projects' data; no listing shows it any more.
      await db.raw('alter table tenants add column deleted_at timestamptz');
    },
    async down(db) {
      await db.raw('alter table tenants drop column deleted_at');
    },
  },
];
