import type { Migration } from '@platform/db';

/** A project's Stripe keys per environment, encrypted with the master key. */
export const createStripeConfigs: Migration = {
  name: 'billing_001_stripe_configs',
  async up(db) {
    await db.schema.createTable('stripe_configs', (t) => {
      // Every Billing row belongs to a project in one Stripe environment.
      t.uuid('tenant_id').notNullable();
      t.uuid('project_id').notNullable();
      t.enum('environment', ['test', 'live']).notNullable();
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
};
