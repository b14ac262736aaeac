import { toIso } from '@platform/tenancy';
import type { SubscriptionRow } from './subscriptions.repository';

/** SPEC's Subscription row (`paySubscriptionId` is Stripe's id), plus where it lives. */
export function toSubscriptionView(row: SubscriptionRow) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    projectId: row.project_id,
    environment: row.environment,
    planId: row.plan_id,
    status: row.status,
    currentPeriodEnd: toIso(row.current_period_end),
    paySubscriptionId: row.stripe_subscription_id,
    customerId: row.stripe_customer_id,
    customerEmail: row.customer_email,
    cancelAtPeriodEnd: Boolean(row.cancel_at_period_end),
    canceledAt: toIso(row.canceled_at),
    plan: { id: row.plan_id, name: row.plan_name },
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
