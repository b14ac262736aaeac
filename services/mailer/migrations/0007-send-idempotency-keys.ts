import type { Migration } from '@platform/db';

export const m0007SendIdempotencyKeys: Migration = {
  name: '0007_send_idempotency_keys',
  async up(db) {
    // One row per Idempotency-Key and project: the unique key is what makes concurrent duplicates wait and send once.
    await db.schema.createTable('mail_idempotency_keys', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('key').notNullable();
      t.text('request_hash').notNullable();
      t.jsonb('response').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(['project_id', 'key']);
      t.index(['expires_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('mail_idempotency_keys');
  },
};
