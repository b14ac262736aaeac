import type { Migration } from '@platform/db';

export const m0001MailProviders: Migration = {
  name: '0001_mail_providers',
  async up(db) {
    await db.schema.createTable('mail_providers', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('name').notNullable();
      t.text('type').notNullable();
      // The whole vendor config (apiKey, domain, signing keys) sealed with the master key.
      t.text('config_enc').notNullable();
      t.boolean('is_default').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['project_id', 'created_at']);
    });
    // At most one default provider per project.
    await db.raw('create unique index mail_providers_one_default on mail_providers (project_id) where is_default');
  },
  async down(db) {
    await db.schema.dropTable('mail_providers');
  },
};
