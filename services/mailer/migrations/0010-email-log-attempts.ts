import type { Migration } from '@platform/db';

export const m0010EmailLogAttempts: Migration = {
  name: '0010_email_log_attempts',
  async up(db) {
    await db.schema.alterTable('email_logs', (t) => {
      // One row per email: the providers it was handed to, in order, each with its outcome.
      t.jsonb('attempts').notNullable().defaultTo('[]');
    });
  },
  async down(db) {
    await db.schema.alterTable('email_logs', (t) => {
      t.dropColumn('attempts');
    });
  },
};
