import type { Migration } from '@platform/db';

export const createMfa: Migration = {
  name: '0007_mfa',
  async up(db) {
    // TOTP factors: the secret sealed with the platform's SecretBox; pending until a first code
    // proves the authenticator has it. last_used_step makes each code good once.
    await db.schema.createTable('mfa_factors', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
      t.text('type').notNullable();
      t.text('status').notNullable();
      t.text('secret_sealed').notNullable();
      t.bigInteger('last_used_step');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('activated_at', { useTz: true });
      t.index(['tenant_id', 'project_id', 'user_id']);
    });
    // Single-use recovery codes, stored as SHA-256 (they are random, so no slow hash is needed).
    await db.schema.createTable('mfa_recovery_codes', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
      t.text('code_hash').notNullable();
      t.timestamp('used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['tenant_id', 'project_id', 'user_id']);
    });
    // A password sign-in waiting for its second factor (5 minutes, single use).
    await db.schema.createTable('mfa_challenges', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
  async down(db) {
    await db.schema.dropTable('mfa_challenges');
    await db.schema.dropTable('mfa_recovery_codes');
    await db.schema.dropTable('mfa_factors');
  },
};
