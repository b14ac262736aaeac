import { toIso } from '@platform/tenancy';
import type { BillingContext } from '../shared/context';
import type { Scope } from '../shared/scope';
import { findCurrentByEmail, type SubscriptionRow } from './subscriptions.repository';

/** SPEC's Subscription row (`paySubscriptionId` is Stripe's id), plus where it lives. */
export function toSubscriptionView(row: SubscriptionRow) {
  return {
    id: row.id,
    tenantId: row.tenantId,
    projectId: row.projectId,
    environment: row.environment,
    planId: row.planId,
    status: row.status,
    currentPeriodEnd: toIso(row.currentPeriodEnd),
    paySubscriptionId: row.stripeSubscriptionId,
    customerId: row.stripeCustomerId,
    customerEmail: row.customerEmail,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canceledAt: toIso(row.canceledAt),
    plan: { id: row.planId, name: row.planName },
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

/** Answered from the table the webhooks keep, without asking Stripe. */
export async function currentSubscription(ctx: BillingContext, scope: Scope, email: string) {
  const row = await findCurrentByEmail(ctx.db, scope, email);
  return { success: true, subscription: row ? toSubscriptionView(row) : null };
}
