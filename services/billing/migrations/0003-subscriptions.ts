import type { Migration } from '@platform/db';

/** Subscriptions as the webhooks last saw them, answering the current subscription of an email. */
export const createSubscriptions: Migration = {
  name: 'billing_003_subscriptions',
  async up(db) {
    await db.schema.createTable('subscriptions', (t) => {
      t.uuid('id').primary();
      // Every Billing row belongs to a project in one Stripe environment.
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.enum('environment', ['test', 'live']).notNullable();
      t.text('stripe_subscription_id').notNullable();
      t.text('stripe_customer_id').notNullable();
      t.text('customer_email');
      t.text('plan_id');
      t.text('plan_name');
      t.text('status').notNullable();
      t.timestamp('current_period_end', { useTz: true });
      t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
      t.timestamp('canceled_at', { useTz: true });
      t.timestamp('stripe_created_at', { useTz: true }).notNullable();
      // Stripe's `created` of the newest event applied, so an older event arriving late changes nothing.
      t.timestamp('last_event_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['tenant_id', 'project_id', 'environment', 'stripe_subscription_id']);
      t.index(['tenant_id', 'project_id', 'environment', 'customer_email']);
    });
  },
  async down(db) {
    await db.schema.dropTable('subscriptions');
  },
};
