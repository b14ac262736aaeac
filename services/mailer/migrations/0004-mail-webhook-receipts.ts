import type { Migration } from '@platform/db';

export const m0004MailWebhookReceipts: Migration = {
  name: '0004_mail_webhook_receipts',
  async up(db) {
    // Mailgun tokens and SendGrid event ids already processed per provider, kept until their
    // window has passed, so a replayed webhook is refused on every replica and after restarts.
    await db.schema.createTable('mail_webhook_receipts', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('provider_id').notNullable();
      t.text('receipt_id').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(['provider_id', 'receipt_id']);
      t.index(['provider_id', 'expires_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('mail_webhook_receipts');
  },
};
