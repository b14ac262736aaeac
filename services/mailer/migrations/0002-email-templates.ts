import type { Migration } from '@platform/db';

export const m0002EmailTemplates: Migration = {
  name: '0002_email_templates',
  async up(db) {
    await db.schema.createTable('email_templates', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('name').notNullable();
      t.text('template_key');
      t.text('subject').notNullable();
      t.text('html').notNullable();
      t.text('text');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['project_id', 'template_key']);
      t.index(['project_id', 'created_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('email_templates');
  },
};
