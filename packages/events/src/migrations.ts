import type { Migration } from '@platform/db';

/** Tables every service with events needs: the outbox and the record of events already handled. */
export const eventMigrations: Migration[] = [
  {
    name: '0000_events_outbox',
    async up(db) {
      await db.schema.createTable('outbox', (t) => {
        t.uuid('id').primary();
        t.text('type').notNullable();
        t.jsonb('envelope').notNullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('published_at', { useTz: true });
      });
      // The relay only ever scans unpublished rows.
      await db.raw('create index outbox_pending_idx on outbox (next_attempt_at) where published_at is null');
      await db.schema.createTable('processed_events', (t) => {
        t.text('consumer').notNullable();
        t.uuid('event_id').notNullable();
        t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['consumer', 'event_id']);
      });
    },
    async down(db) {
      await db.schema.dropTable('processed_events');
      await db.schema.dropTable('outbox');
    },
  },
];
