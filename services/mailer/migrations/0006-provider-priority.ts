import type { Migration } from '@platform/db';

export const m0006ProviderPriority: Migration = {
  name: '0006_provider_priority',
  async up(db) {
    // Failover order: lower first; ties go to the default, then the oldest.
    await db.schema.alterTable('mail_providers', (t) => {
      t.integer('priority').notNullable().defaultTo(100);
    });
  },
  async down(db) {
    await db.schema.alterTable('mail_providers', (t) => {
      t.dropColumn('priority');
    });
  },
};
