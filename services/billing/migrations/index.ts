import type { Knex } from 'knex';
import type { Migration } from '@platform/db';

const ENVIRONMENTS = ['test', 'live'];

const tenantColumns = (t: Knex.CreateTableBuilder) => {
  t.uuid('tenant_id').notNullable();
  t.uuid('project_id').notNullable();
  t.enum('environment', ENVIRONMENTS).notNullable();
};

/** The Billing service's schema changes, oldest first. */
export const migrations: Migration[] = [
  {
    name: 'billing_001_stripe_configs',
    async up(db) {
      await db.schema.createTable('stripe_configs', (t) => {
        tenantColumns(t);
        t.text('secret_key_enc').notNullable();
        t.text('webhook_secret_enc');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['tenant_id', 'project_id', 'environment']);
      });
    },
    async down(db) {
      await db.schema.dropTable('stripe_configs');
    },
  },
  {
    name: 'billing_002_customers',
    async up(db) {
      await db.schema.createTable('customers', (t) => {
        t.uuid('id').primary();
        tenantColumns(t);
        t.text('stripe_customer_id').notNullable();
        // Set when the customer stands for a signed-in user of the project (checkout, portal).
        t.text('user_id');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.unique(['tenant_id', 'project_id', 'environment', 'stripe_customer_id']);
        t.index(['tenant_id', 'project_id', 'environment', 'created_at']);
      });
      await db.raw(
        'create unique index customers_user_unique on customers (tenant_id, project_id, environment, user_id) where user_id is not null',
      );
    },
    async down(db) {
      await db.schema.dropTable('customers');
    },
  },
  {
    name: 'billing_003_subscriptions',
    async up(db) {
      await db.schema.createTable('subscriptions', (t) => {
        t.uuid('id').primary();
        tenantColumns(t);
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
  },
  {
    name: 'billing_004_stripe_events',
    async up(db) {
      await db.schema.createTable('stripe_events', (t) => {
        tenantColumns(t);
        t.text('event_id').notNullable();
        t.text('type').notNullable();
        t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['tenant_id', 'project_id', 'environment', 'event_id']);
      });
    },
    async down(db) {
      await db.schema.dropTable('stripe_events');
    },
  },
];
