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

const history: Migration = {
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

const search: Migration = {
  name: '005_content_search',
  async up(db) {
    // The project's search language is stored with each row (as written), so the generated
    // vector stays immutable: title above content above metadata strings.
    await db.raw(`ALTER TABLE content_items
      ADD COLUMN search_language regconfig NOT NULL DEFAULT 'simple',
      ADD COLUMN search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector(search_language, title), 'A') ||
        setweight(to_tsvector(search_language, content), 'B') ||
        setweight(jsonb_to_tsvector(search_language, metadata, '["string"]'), 'C')
      ) STORED`);
    await db.raw(`CREATE INDEX content_items_search ON content_items USING gin (search)`);
  },
  async down(db) {
    await db.raw(`ALTER TABLE content_items DROP COLUMN search, DROP COLUMN search_language`);
  },
};

const webhooks: Migration = {
  name: '006_content_webhooks',
  async up(db) {
    await db.schema.createTable('webhooks', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('url').notNullable();
      t.specificType('events', 'text[]').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['tenant_id', 'project_id', 'created_at'], 'webhooks_by_project');
    });
    await db.schema.createTable('webhook_deliveries', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
      t.text('event').notNullable();
      t.text('url').notNullable();
      t.text('body').notNullable();
      t.text('status').notNullable().defaultTo('pending');
      t.integer('attempt_count').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['tenant_id', 'project_id', 'webhook_id', 'created_at'], 'webhook_deliveries_by_webhook');
    });
    await db.schema.createTable('webhook_delivery_attempts', (t) => {
      t.uuid('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
      t.integer('attempt').notNullable();
      t.text('outcome').notNullable();
      t.integer('status_code');
      t.text('error');
      t.integer('duration_ms').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      // A redelivery can overlap a retry still waiting, so the number is unique but not the key.
      t.uuid('id').primary();
      t.index(['delivery_id', 'attempt'], 'webhook_delivery_attempts_by_delivery');
    });
  },
  async down(db) {
    await db.schema.dropTable('webhook_delivery_attempts');
    await db.schema.dropTable('webhook_deliveries');
    await db.schema.dropTable('webhooks');
  },
};

/** The CMS service's schema changes, oldest first. */
export const migrations: Migration[] = [contentTypes, contentItems, news, history, search, webhooks];
