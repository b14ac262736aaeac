import type { Migration } from '@platform/db';

export const m0005MailSuppressions: Migration = {
  name: '0005_mail_suppressions',
  async up(db) {
    // Addresses a project must not mail: `all` (bounce, complaint, by hand) or only its `marketing` mail.
    await db.schema.createTable('mail_suppressions', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      /** Lowercased: addresses compare case-insensitively. */
      t.text('email').notNullable();
      t.text('scope').notNullable();
      /** bounce, complaint, unsubscribe or manual */
      t.text('reason').notNullable();
      /** The vendor event that caused it (e.g. `mailgun:complained`), null when added by hand or one-click. */
      t.text('provider_event');
      t.uuid('provider_id');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(['project_id', 'email']);
      t.index(['project_id', 'created_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('mail_suppressions');
  },
};
