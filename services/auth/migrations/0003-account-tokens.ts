import type { Migration } from '@platform/db';

export const createAccountTokens: Migration = {
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
};
