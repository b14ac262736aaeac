import type { Migration } from '@platform/db';

export const createRefreshTokens: Migration = {
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
};
