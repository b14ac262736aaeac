import type { Migration } from '@platform/db';

/** The Authentication service's schema changes, oldest first. */
export const migrations: Migration[] = [
  {
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
  },
  {
    name: '0002_refresh_tokens',
    async up(db) {
      await db.schema.createTable('refresh_tokens', (t) => {
        t.uuid('id').primary();
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
        // SHA-256 of the opaque token; the token itself is never stored.
        t.text('token_hash').notNullable().unique();
        // Every token descending from one login shares the family; reuse of a rotated one kills it.
        t.uuid('family_id').notNullable();
        t.integer('token_version').notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('rotated_at', { useTz: true });
        t.timestamp('revoked_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['user_id']);
        t.index(['family_id']);
      });
    },
    async down(db) {
      await db.schema.dropTable('refresh_tokens');
    },
  },
  {
    name: '0003_account_tokens',
    async up(db) {
      // Single-use email tokens: verification (24 h) and password reset (1 h).
      await db.schema.createTable('account_tokens', (t) => {
        t.uuid('id').primary();
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
        t.text('purpose').notNullable();
        t.text('token_hash').notNullable().unique();
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['user_id', 'purpose']);
      });
      await db.raw(
        "alter table account_tokens add constraint account_tokens_purpose_check check (purpose in ('verify_email', 'reset_password'))",
      );
    },
    async down(db) {
      await db.schema.dropTable('account_tokens');
    },
  },
];
