import type { Migration } from '@platform/db';

/** Our records of the Stripe customers a project created (and which user each stands for). */
export const createCustomers: Migration = {
  name: 'billing_002_customers',
  async up(db) {
    await db.schema.createTable('customers', (t) => {
      t.uuid('id').primary();
      // Every Billing row belongs to a project in one Stripe environment.
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.enum('environment', ['test', 'live']).notNullable();
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
};
