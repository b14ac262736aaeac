import type { Migration } from '@platform/db';

export const m0003EmailLogs: Migration = {
  name: '0003_email_logs',
  async up(db) {
    await db.schema.createTable('email_logs', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('provider_id');
      /** mailgun, sendgrid or outbox */
      t.text('provider').notNullable();
      /** api, provider-test, auth.verify-email, auth.reset-password */
      t.text('source').notNullable();
      t.text('to_email').notNullable();
      t.text('from_email').notNullable();
      t.text('subject').notNullable();
      // Kept only for the outbox transport, where the stored copy is the delivery.
      t.text('html');
      t.text('text');
      t.uuid('template_id');
      t.text('status').notNullable();
      t.text('vendor_message_id');
      t.text('error');
      // The event an auth email was sent for: a second delivery of it cannot add a row.
      t.uuid('event_id').unique();
      t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['project_id', 'sent_at']);
      t.index(['vendor_message_id']);
    });
    await db.raw('create index email_logs_recipient_idx on email_logs (project_id, lower(to_email), sent_at desc)');
  },
  async down(db) {
    await db.schema.dropTable('email_logs');
  },
};
