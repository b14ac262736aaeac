import type { Migration } from '@platform/db';

const contentTypes: Migration = {
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

const contentItems: Migration = {
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

const news: Migration = {
  name: '003_news',
  async up(db) {
    await db.schema.createTable('news_items', (t) => {
      t.uuid('id').primary();
      t.text('url').notNullable().unique({ indexName: 'news_items_url_unique' });
      t.text('title').notNullable();
      t.text('description').notNullable().defaultTo('');
      t.timestamp('published_at', { useTz: true });
      t.text('source').notNullable();
      t.text('category').notNullable();
      t.text('feed_url').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('fetched_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.raw(`CREATE INDEX news_items_newest ON news_items (published_at DESC NULLS LAST, created_at DESC)`);
    await db.raw(
      `CREATE INDEX news_items_by_category ON news_items (category, published_at DESC NULLS LAST, created_at DESC)`,
    );
    // One row per configured feed: when it was last tried, and its last success or error.
    await db.schema.createTable('news_feeds', (t) => {
      t.text('url').primary();
      t.text('category').notNullable();
      t.timestamp('last_attempt_at', { useTz: true });
      t.timestamp('last_success_at', { useTz: true });
      t.text('last_error');
      t.integer('last_item_count');
    });
  },
  async down(db) {
    await db.schema.dropTable('news_feeds');
    await db.schema.dropTable('news_items');
  },
};

/** The CMS service's schema changes, oldest first. */
export const migrations: Migration[] = [contentTypes, contentItems, news];
