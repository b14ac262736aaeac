import type { Migration } from '@platform/db';

/** Stripe event ids already applied, so a redelivery changes nothing. */
export const createStripeEvents: Migration = {
  name: 'billing_004_stripe_events',
  async up(db) {
    await db.schema.createTable('stripe_events', (t) => {
      // Every Billing row belongs to a project in one Stripe environment.
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.enum('environment', ['test', 'live']).notNullable();
      t.text('event_id').notNullable();
      t.text('type').notNullable();
      t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(['tenant_id', 'project_id', 'environment', 'event_id']);
    });
  },
  async down(db) {
    await db.schema.dropTable('stripe_events');
  },
};
