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
  {
    name: '0004_login_failures',
    async up(db) {
      // Failed logins are counted per email whether or not it has an account, so that the lock
      // (423 after 5) does not tell which emails do. Keyed by the SHA-256 of the normalized
      // email: most emails tried are no account's, and their addresses are not stored.
      await db.schema.createTable('login_failures', (t) => {
        t.uuid('tenant_id').notNullable();
        t.uuid('project_id').notNullable();
        t.text('email_hash').notNullable();
        t.integer('failed_count').notNullable();
        t.timestamp('last_failed_at', { useTz: true }).notNullable();
        t.timestamp('locked_until', { useTz: true });
        t.primary(['tenant_id', 'project_id', 'email_hash']);
        // The prune looks for rows whose last failure is older than the window.
        t.index(['last_failed_at']);
      });
      // Counts and locks in flight move over, so a deploy lifts no lock. users.failed_login_count
      // and users.locked_until are no longer read; they stay until the previous release is gone
      // (replicas migrate on start, and the old ones still serving a rollout select them).
      await db.raw(`
        insert into login_failures (tenant_id, project_id, email_hash, failed_count, last_failed_at, locked_until)
        select tenant_id, project_id, encode(sha256(convert_to(email, 'UTF8')), 'hex'), failed_login_count, now(), locked_until
          from users
         where failed_login_count > 0 or locked_until > now()`);
    },
    async down(db) {
      await db.schema.dropTable('login_failures');
    },
  },
];
