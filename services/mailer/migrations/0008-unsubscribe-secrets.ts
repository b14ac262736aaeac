import type { Migration } from '@platform/db';

export const m0008UnsubscribeSecrets: Migration = {
  name: '0008_unsubscribe_secrets',
  async up(db) {
    // Per project, the HMAC key of its unsubscribe links, sealed with the master key.
    await db.schema.createTable('mail_unsubscribe_secrets', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').primary();
      t.text('secret_enc').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
  async down(db) {
    await db.schema.dropTable('mail_unsubscribe_secrets');
  },
};
