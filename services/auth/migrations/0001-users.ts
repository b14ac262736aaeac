import type { Migration } from '@platform/db';

export const createUsers: Migration = {
  name: '0001_users',
  async up(db) {
    await db.schema.createTable('users', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      // Stored trimmed and lowercased, so the unique index is the case-insensitive rule.
      t.text('email').notNullable();
      t.text('password_hash').notNullable();
      t.boolean('email_verified').notNullable().defaultTo(false);
      t.text('phone_number');
      t.boolean('phone_verified').notNullable().defaultTo(false);
      t.text('avatar_url');
      t.text('username');
      t.jsonb('metadata').notNullable().defaultTo('{}');
      t.boolean('is_admin').notNullable().defaultTo(false);
      t.boolean('is_core_account').notNullable().defaultTo(false);
      // Bumped by logout and password reset; refresh tokens issued under an older version are dead.
      t.integer('token_version').notNullable().defaultTo(0);
      t.integer('failed_login_count').notNullable().defaultTo(0);
      t.timestamp('locked_until', { useTz: true });
      t.timestamp('last_login', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['tenant_id', 'project_id', 'email']);
    });
  },
  async down(db) {
    await db.schema.dropTable('users');
  },
};
