import type { Migration } from '@platform/db';

export const news: Migration = {
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
