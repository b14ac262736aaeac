import type { Migration } from '@platform/db';

export const createPasskeys: Migration = {
  name: '0009_passkeys',
  async up(db) {
    // WebAuthn credentials: the COSE public key, the signature counter and the backup flags the
    // authenticator reported. A credential id is unique within its project.
    await db.schema.createTable('passkeys', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
      t.text('credential_id').notNullable();
      t.binary('public_key').notNullable();
      t.bigInteger('sign_count').notNullable().defaultTo(0);
      t.specificType('transports', 'text[]').notNullable().defaultTo('{}');
      t.text('device_type').notNullable();
      t.boolean('backed_up').notNullable();
      t.text('name').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('last_used_at', { useTz: true });
      t.unique(['tenant_id', 'project_id', 'credential_id']);
      t.index(['tenant_id', 'project_id', 'user_id']);
    });
    // A registration or sign-in ceremony waiting for the authenticator (5 minutes, single use).
    await db.schema.createTable('passkey_challenges', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('user_id').references('users.id').onDelete('CASCADE');
      t.text('kind').notNullable();
      t.text('challenge').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['tenant_id', 'project_id', 'expires_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('passkey_challenges');
    await db.schema.dropTable('passkeys');
  },
};
