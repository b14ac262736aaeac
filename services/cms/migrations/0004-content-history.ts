import type { Migration } from '@platform/db';

export const history: Migration = {
  name: '004_content_history',
  async up(db) {
    // `revision` is the item's latest revision number: bumping it in the UPDATE that makes a
    // change locks the row, so concurrent changes get consecutive numbers.
    await db.raw(`ALTER TABLE content_items
      ADD COLUMN revision integer NOT NULL DEFAULT 0,
      ADD COLUMN publish_at timestamptz,
      ADD COLUMN unpublish_at timestamptz,
      ADD COLUMN draft jsonb,
      ADD COLUMN draft_publish_at timestamptz,
      ADD COLUMN draft_updated_at timestamptz`);
    await db.raw(`CREATE INDEX content_items_publish_due ON content_items (publish_at) WHERE publish_at IS NOT NULL`);
    await db.raw(
      `CREATE INDEX content_items_unpublish_due ON content_items (unpublish_at) WHERE unpublish_at IS NOT NULL`,
    );
    await db.raw(
      `CREATE INDEX content_items_draft_publish_due ON content_items (draft_publish_at) WHERE draft_publish_at IS NOT NULL`,
    );
    await db.schema.createTable('content_revisions', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('content_id').notNullable();
      t.integer('number').notNullable();
      t.text('change').notNullable();
      t.text('title').notNullable();
      t.text('slug').notNullable();
      t.text('content').notNullable();
      t.text('status').notNullable();
      t.jsonb('metadata').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(['content_id', 'number']);
    });
    await db.raw(
      `CREATE INDEX content_revisions_by_item ON content_revisions (tenant_id, project_id, content_id, number DESC)`,
    );
  },
  async down(db) {
    await db.schema.dropTable('content_revisions');
    await db.raw(`ALTER TABLE content_items DROP COLUMN revision, DROP COLUMN publish_at, DROP COLUMN unpublish_at,
      DROP COLUMN draft, DROP COLUMN draft_publish_at, DROP COLUMN draft_updated_at`);
  },
};
