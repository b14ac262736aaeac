import type { Migration } from '@platform/db';

/** Vendor credentials, completion logs, batches with their items, webhook attempts. */
export const llmTables: Migration = {
  name: '0001_llm_tables',
  async up(db) {
    await db.schema.createTable('providers', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('provider_type').notNullable();
      t.text('api_key_enc').notNullable();
      t.text('organization_id');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['tenant_id', 'project_id', 'provider_type']);
    });

    await db.schema.createTable('completion_logs', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('model').notNullable();
      t.text('provider').notNullable();
      t.text('status').notNullable();
      t.integer('prompt_tokens').notNullable().defaultTo(0);
      t.integer('completion_tokens').notNullable().defaultTo(0);
      t.integer('total_tokens').notNullable().defaultTo(0);
      t.integer('latency_ms').notNullable().defaultTo(0);
      t.text('error');
      t.uuid('batch_id');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.raw(
      'create index completion_logs_project_created_idx on completion_logs (tenant_id, project_id, created_at desc, id desc)',
    );

    await db.schema.createTable('batches', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.text('status').notNullable();
      t.integer('request_count').notNullable();
      t.integer('completed_count').notNullable().defaultTo(0);
      t.integer('failed_count').notNullable().defaultTo(0);
      t.text('webhook_url');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('started_at', { useTz: true });
      t.timestamp('completed_at', { useTz: true });
      t.timestamp('cancelled_at', { useTz: true });
      t.timestamp('heartbeat_at', { useTz: true });
    });
    await db.raw(
      'create index batches_project_created_idx on batches (tenant_id, project_id, created_at desc, id desc)',
    );
    // The sweeper only looks at unfinished batches.
    await db.raw(
      "create index batches_unfinished_idx on batches (heartbeat_at) where status in ('pending', 'processing')",
    );

    // One row per request; the primary key makes each custom_id's result unique within its batch.
    await db.schema.createTable('batch_items', (t) => {
      t.uuid('batch_id').notNullable().references('batches.id').onDelete('CASCADE');
      t.text('custom_id').notNullable();
      t.integer('position').notNullable();
      t.text('model').notNullable();
      t.text('provider').notNullable();
      t.jsonb('messages').notNullable();
      t.integer('max_tokens');
      t.float('temperature');
      t.text('status').notNullable().defaultTo('pending');
      t.timestamp('claimed_at', { useTz: true });
      t.text('completion');
      t.text('result_model');
      t.integer('prompt_tokens');
      t.integer('completion_tokens');
      t.integer('total_tokens');
      t.text('error');
      t.timestamp('finished_at', { useTz: true });
      t.primary(['batch_id', 'custom_id']);
    });
    await db.raw(
      "create index batch_items_open_idx on batch_items (batch_id, position) where status in ('pending', 'processing')",
    );
    await db.raw('create unique index batch_items_position_idx on batch_items (batch_id, position)');

    await db.schema.createTable('webhook_attempts', (t) => {
      t.uuid('id').primary();
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.uuid('batch_id').notNullable();
      t.uuid('webhook_id').notNullable();
      t.integer('attempt').notNullable();
      t.text('url').notNullable();
      t.text('outcome').notNullable();
      t.integer('status_code');
      t.text('error');
      t.integer('duration_ms').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    await db.raw('create index webhook_attempts_batch_idx on webhook_attempts (batch_id, created_at)');
  },
  async down(db) {
    await db.schema.dropTable('webhook_attempts');
    await db.schema.dropTable('batch_items');
    await db.schema.dropTable('batches');
    await db.schema.dropTable('completion_logs');
    await db.schema.dropTable('providers');
  },
};
