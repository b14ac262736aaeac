import type { Migration } from '@platform/db';

/**
 * The OpenAI-compatible gateway: cost and cache tokens on each log row, the attempts of one
 * request tied together, and one row per project holding its limits, its default fallbacks and
 * the meters they are checked against (one row, so admission is a single conditional update).
 */
export const gateway: Migration = {
  name: '0003_gateway',
  async up(db) {
    await db.schema.alterTable('completion_logs', (t) => {
      t.decimal('cost_usd', 18, 10);
      t.integer('cached_tokens').notNullable().defaultTo(0);
      t.integer('cache_write_tokens').notNullable().defaultTo(0);
      t.uuid('request_id');
      t.integer('attempt');
      t.boolean('stream').notNullable().defaultTo(false);
    });
    await db.schema.createTable('project_limits', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.decimal('monthly_budget_usd', 18, 6);
      t.integer('requests_per_minute');
      t.integer('tokens_per_minute');
      t.jsonb('fallbacks').notNullable().defaultTo('[]');
      // Meters: spend of `month` (settled, and reserved by requests in flight), use of the minute `window_start`.
      t.timestamp('month', { useTz: true }).notNullable();
      t.decimal('spent_usd', 18, 10).notNullable().defaultTo(0);
      t.decimal('reserved_usd', 18, 10).notNullable().defaultTo(0);
      t.timestamp('window_start', { useTz: true }).notNullable();
      t.integer('window_requests').notNullable().defaultTo(0);
      t.bigInteger('window_tokens').notNullable().defaultTo(0);
      t.primary(['tenant_id', 'project_id']);
    });
  },
  async down(db) {
    await db.schema.dropTable('project_limits');
    await db.schema.alterTable('completion_logs', (t) => {
      t.dropColumns('cost_usd', 'cached_tokens', 'cache_write_tokens', 'request_id', 'attempt', 'stream');
    });
  },
};
