import { toIso } from '@platform/tenancy';
import type { Environment } from '../shared/environment';
import type { SubscriptionRow } from './subscriptions.repository';

/** SPEC's Subscription row (`paySubscriptionId` is Stripe's id), plus where it lives. */
export interface SubscriptionView {
  id: string;
  tenantId: string;
  projectId: string;
  environment: Environment;
  planId: string | null;
  status: string;
  currentPeriodEnd: string | null;
  paySubscriptionId: string;
  customerId: string;
  customerEmail: string | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  plan: { id: string | null; name: string | null };
  createdAt: string | null;
  updatedAt: string | null;
}

export function toSubscriptionView(row: SubscriptionRow): SubscriptionView {
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
