import type { Migration } from '@platform/db';

export const m0009LocaleVariantsAndLogCategory: Migration = {
  name: '0009_locale_variants_and_log_category',
  async up(db) {
    await db.schema.alterTable('email_templates', (t) => {
      // {"pt-BR": {subject, html, text}, ...}; the template's own fields are the default.
      t.jsonb('variants').notNullable().defaultTo('{}');
    });
    await db.schema.alterTable('email_logs', (t) => {
      /** transactional or marketing */
      t.text('category').notNullable().defaultTo('transactional');
      /** Why a `suppressed` row was not sent (bounce, complaint, unsubscribe, manual). */
      t.text('suppression_reason');
    });
  },
  async down(db) {
    await db.schema.alterTable('email_templates', (t) => {
      t.dropColumn('variants');
    });
    await db.schema.alterTable('email_logs', (t) => {
      t.dropColumn('category');
      t.dropColumn('suppression_reason');
    });
  },
};
