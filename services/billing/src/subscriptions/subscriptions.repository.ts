import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { scopeColumns, type Scope } from '../shared/scope';

/** A subscription's state as Stripe last told it. */
export interface SubscriptionState {
  stripeSubscriptionId: string;
  stripeCustomerId: string;
  customerEmail: string | null;
  planId: string | null;
  planName: string | null;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  stripeCreatedAt: Date;
}

/** A stored subscription: that state (minus Stripe's creation time), where it lives and when we wrote it. */
export interface SubscriptionRow extends Omit<SubscriptionState, 'stripeCreatedAt'> {
  id: string;
  tenantId: string;
  projectId: string;
  environment: string;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'environment',
  'stripe_subscription_id',
  'stripe_customer_id',
  'customer_email',
  'plan_id',
  'plan_name',
  'status',
  'current_period_end',
  'cancel_at_period_end',
  'canceled_at',
  'created_at',
  'updated_at',
];

const toRow = (r: Record<string, unknown>): SubscriptionRow => ({
  id: r.id as string,
  tenantId: r.tenant_id as string,
  projectId: r.project_id as string,
  environment: r.environment as string,
  stripeSubscriptionId: r.stripe_subscription_id as string,
  stripeCustomerId: r.stripe_customer_id as string,
  customerEmail: (r.customer_email as string | null) ?? null,
  planId: (r.plan_id as string | null) ?? null,
  planName: (r.plan_name as string | null) ?? null,
  status: r.status as string,
  currentPeriodEnd: (r.current_period_end as Date | null) ?? null,
  cancelAtPeriodEnd: Boolean(r.cancel_at_period_end),
  canceledAt: (r.canceled_at as Date | null) ?? null,
  createdAt: r.created_at as Date,
  updatedAt: r.updated_at as Date,
});

/**
 * Inserts or updates the subscription, unless what is stored came from a newer Stripe event
 * (events may arrive out of order).
 */
export async function saveSubscription(db: Knex, scope: Scope, state: SubscriptionState, eventAt: Date): Promise<void> {
  const values = {
    stripe_customer_id: state.stripeCustomerId,
    customer_email: state.customerEmail?.toLowerCase() ?? null,
    plan_id: state.planId,
    plan_name: state.planName,
    status: state.status,
    current_period_end: state.currentPeriodEnd,
    cancel_at_period_end: state.cancelAtPeriodEnd,
    canceled_at: state.canceledAt,
    stripe_created_at: state.stripeCreatedAt,
    last_event_at: eventAt,
  };
  await db('subscriptions')
    .insert({ id: randomUUID(), ...scopeColumns(scope), stripe_subscription_id: state.stripeSubscriptionId, ...values })
    .onConflict(['tenant_id', 'project_id', 'environment', 'stripe_subscription_id'])
    .merge({ ...values, updated_at: db.fn.now() })
    .where('subscriptions.last_event_at', '<=', eventAt);
}

export async function findSubscription(
  db: Knex,
  scope: Scope,
  stripeSubscriptionId: string,
): Promise<SubscriptionRow | null> {
  const row = await db('subscriptions')
    .where({ ...scopeColumns(scope), stripe_subscription_id: stripeSubscriptionId })
    .first(COLUMNS);
  return row ? toRow(row) : null;
}

/** The newest `active` or `trialing` subscription of that customer email, if any. */
export async function findCurrentByEmail(db: Knex, scope: Scope, email: string): Promise<SubscriptionRow | null> {
  const row = await db('subscriptions')
    .where({ ...scopeColumns(scope), customer_email: email.toLowerCase() })
    .whereIn('status', ['active', 'trialing'])
    .orderBy([
      { column: 'stripe_created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first(COLUMNS);
  return row ? toRow(row) : null;
}
