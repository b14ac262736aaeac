import type { Migration } from '@platform/db';

/**
 * Leased concurrency slots: at most LLM_BATCH_CONCURRENCY rows per project (slot 0..n-1), each
 * held by one worker process until it gives it back or its lease runs out (a killed worker).
 */
export const batchConcurrencySlots: Migration = {
  name: '0002_batch_concurrency_slots',
  async up(db) {
    await db.schema.createTable('batch_concurrency_slots', (t) => {
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.integer('slot').notNullable();
      t.uuid('holder').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.primary(['tenant_id', 'project_id', 'slot']);
      t.index(['holder']);
    });
  },
  async down(db) {
    await db.schema.dropTable('batch_concurrency_slots');
  },
};
