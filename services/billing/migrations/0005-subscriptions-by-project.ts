import type { Migration } from '@platform/db';

/** GET /pay/subscriptions pages through a project's subscriptions newest first. */
export const indexSubscriptionsByProject: Migration = {
  name: 'billing_005_subscriptions_by_project',
  async up(db) {
    await db.raw(
      'create index subscriptions_newest on subscriptions (tenant_id, project_id, environment, stripe_created_at desc, id desc)',
    );
  },
  async down(db) {
    await db.raw('drop index subscriptions_newest');
  },
};
