import type { Migration } from '@platform/db';

export const webhooks: Migration = {
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
