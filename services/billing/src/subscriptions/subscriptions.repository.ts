import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Environment } from '../shared/environment';
import type { EnvironmentTenant } from '../shared/environment-tenant';

/** A subscription's state as Stripe last told it: what the webhooks write. */
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

/** A stored subscription, as read (Stripe's creation time and the last event's are left out). */
export interface SubscriptionRow {
  id: string;
  tenant_id: string;
  project_id: string;
  environment: Environment;
  stripe_subscription_id: string;
  stripe_customer_id: string;
  customer_email: string | null;
  plan_id: string | null;
  plan_name: string | null;
  status: string;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  created_at: Date;
  updated_at: Date;
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
] as const;

/**
 * Inserts or updates the subscription, unless what is stored came from a newer Stripe event
 * (events may arrive out of order).
 */
export async function saveSubscription(
  db: Knex,
  scope: EnvironmentTenant,
  state: SubscriptionState,
  eventAt: Date,
): Promise<void> {
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
  await tenantTable(db, scope, 'subscriptions')
    .insert({
      id: randomUUID(),
      ...tenantColumns(scope),
      environment: scope.environment,
      stripe_subscription_id: state.stripeSubscriptionId,
      ...values,
    })
    .onConflict(['tenant_id', 'project_id', 'environment', 'stripe_subscription_id'])
    .merge({ ...values, updated_at: db.fn.now() })
    .where('subscriptions.last_event_at', '<=', eventAt);
}

export async function findSubscription(
  db: Knex,
  scope: EnvironmentTenant,
  stripeSubscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  return tenantTable<SubscriptionRow>(db, scope, 'subscriptions')
    .where({ environment: scope.environment, stripe_subscription_id: stripeSubscriptionId })
    .first(...COLUMNS);
}

export interface SubscriptionListQuery {
  status?: string;
  customerEmail?: string;
  /** Only subscriptions older than this one (Stripe's creation time, then id), newest first. */
  before?: { createdAt: Date; id: string };
  limit: number;
}

/** A page of the project's subscriptions in one environment, newest first (subscriptions_newest). */
export async function listSubscriptions(
  db: Knex,
  scope: EnvironmentTenant,
  query: SubscriptionListQuery,
): Promise<(SubscriptionRow & { stripe_created_at: Date })[]> {
  return tenantTable<SubscriptionRow & { stripe_created_at: Date }>(db, scope, 'subscriptions')
    .where({ environment: scope.environment })
    .modify((q) => {
      if (query.status) q.where({ status: query.status });
      if (query.customerEmail) q.where({ customer_email: query.customerEmail.toLowerCase() });
      if (query.before) q.whereRaw('(stripe_created_at, id) < (?, ?)', [query.before.createdAt, query.before.id]);
    })
    .orderBy([
      { column: 'stripe_created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(query.limit)
    .select(...COLUMNS, 'stripe_created_at');
}

/** The newest `active` or `trialing` subscription of that customer email, if any. */
export async function findCurrentByEmail(
  db: Knex,
  scope: EnvironmentTenant,
  email: string,
): Promise<SubscriptionRow | undefined> {
  return tenantTable<SubscriptionRow>(db, scope, 'subscriptions')
    .where({ environment: scope.environment, customer_email: email.toLowerCase() })
    .whereIn('status', ['active', 'trialing'])
    .orderBy([
      { column: 'stripe_created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first(...COLUMNS);
}
