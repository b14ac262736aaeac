import type { Migration } from '@platform/db';

export const contentItems: Migration = {
  name: '002_content_items',
  async up(db) {
    await db.schema.createTable('content_items', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('type').notNullable();
      t.text('title').notNullable();
      t.text('slug').notNullable();
      t.text('content').notNullable();
      t.text('status').notNullable().defaultTo('draft');
      t.jsonb('metadata').notNullable().defaultTo('{}');
      t.text('content_type');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      // The slug rule (RESOLUTIONS 5) lives here so that racing creates cannot both win.
      t.unique(['tenant_id', 'project_id', 'type', 'slug'], { indexName: 'content_items_slug_unique' });
    });
    await db.raw(
      `ALTER TABLE content_items ADD CONSTRAINT content_items_type_check CHECK (type IN ('blog','faq','page','custom'))`,
    );
    await db.raw(
      `ALTER TABLE content_items ADD CONSTRAINT content_items_status_check CHECK (status IN ('draft','published','archived'))`,
    );
    await db.raw(
      `CREATE INDEX content_items_newest ON content_items (tenant_id, project_id, created_at DESC, id DESC)`,
    );
    await db.raw(
      `CREATE INDEX content_items_by_type ON content_items (tenant_id, project_id, type, created_at DESC, id DESC)`,
    );
  },
  async down(db) {
    await db.schema.dropTable('content_items');
  },
};
