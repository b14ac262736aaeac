import type { Migration } from '@platform/db';

export const contentTypes: Migration = {
  name: '001_content_types',
  async up(db) {
    await db.schema.createTable('content_types', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('name').notNullable();
      t.text('description');
      t.jsonb('schema').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['tenant_id', 'project_id', 'name'], { indexName: 'content_types_name_unique' });
    });
  },
  async down(db) {
    await db.schema.dropTable('content_types');
  },
};
