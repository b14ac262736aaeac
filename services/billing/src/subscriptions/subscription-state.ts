import type { Knex } from 'knex';
import type Stripe from 'stripe';
import { isTaggedFor } from '../customers/customers.tags';
import type { EnvironmentTenant } from '../shared/environment-tenant';
import { callStripe } from '../stripe/stripe-errors';
import { findSubscription, type SubscriptionState } from './subscriptions.repository';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

const dateOf = (seconds: number | null | undefined): Date | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

/** Tagged for another project of the same Stripe account: none of this project's business. */
export function belongsElsewhere(scope: EnvironmentTenant, metadata: Stripe.Metadata | null | undefined): boolean {
  return Boolean(metadata?.projectId) && !isTaggedFor(scope, metadata);
}

async function emailOf(
  db: Knex,
  scope: EnvironmentTenant,
  stripe: Stripe,
  sub: Stripe.Subscription,
  hint?: string | null,
) {
  if (hint) return hint;
  if (typeof sub.customer === 'object' && sub.customer && !sub.customer.deleted && sub.customer.email)
    return sub.customer.email;
  const known = await findSubscription(db, scope, sub.id);
  if (known?.customer_email) return known.customer_email;
  const customer = await callStripe(scope.environment, () => stripe.customers.retrieve(idOf(sub.customer)!));
  return customer.deleted ? null : (customer.email ?? null);
}

async function planNameOf(
  scope: EnvironmentTenant,
  stripe: Stripe,
  price: Stripe.Price | undefined,
): Promise<string | null> {
  if (!price) return null;
  if (price.nickname) return price.nickname;
  if (typeof price.product === 'object' && price.product && !price.product.deleted) return price.product.name;
  if (typeof price.product !== 'string') return price.id;
  const productId = price.product;
  const product = await callStripe(scope.environment, () => stripe.products.retrieve(productId)).catch(() => null);
  return product && !product.deleted ? product.name : price.id;
}

/** Our row's values from Stripe's subscription object (API versions before and after 2025-03 alike). */
export async function stateOf(
  db: Knex,
  scope: EnvironmentTenant,
  stripe: Stripe,
  sub: Stripe.Subscription,
  emailHint?: string | null,
): Promise<SubscriptionState> {
  const item = sub.items?.data?.[0];
  const legacyPeriodEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  return {
    stripeSubscriptionId: sub.id,
    stripeCustomerId: idOf(sub.customer)!,
    customerEmail: await emailOf(db, scope, stripe, sub, emailHint),
    planId: item?.price?.id ?? null,
    planName: await planNameOf(scope, stripe, item?.price),
    status: sub.status,
    currentPeriodEnd: dateOf(legacyPeriodEnd ?? item?.current_period_end),
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    canceledAt: dateOf(sub.canceled_at),
    stripeCreatedAt: dateOf(sub.created) ?? new Date(),
  };
}

/** The subscription an invoice is for (its place moved in Stripe API 2025-03). */
export function subscriptionIdOfInvoice(invoice: Stripe.Invoice): string | null {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription ?? legacy);
}

/** The subscription's state after this event, read fresh from Stripe where the event only points at it. */
export async function stateForEvent(
  db: Knex,
  scope: EnvironmentTenant,
  stripe: Stripe,
  event: Stripe.Event,
): Promise<SubscriptionState | null> {
  const fetch = async (id: string | null, emailHint?: string | null) => {
    if (!id) return null;
    const sub = await callStripe(scope.environment, () => stripe.subscriptions.retrieve(id));
    return belongsElsewhere(scope, sub.metadata) ? null : stateOf(db, scope, stripe, sub, emailHint);
  };
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      return belongsElsewhere(scope, sub.metadata) ? null : stateOf(db, scope, stripe, sub);
    }
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.mode !== 'subscription' || belongsElsewhere(scope, session.metadata)) return null;
      return fetch(idOf(session.subscription), session.customer_details?.email ?? session.customer_email);
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      return fetch(subscriptionIdOfInvoice(invoice), invoice.customer_email);
    }
    default:
      return null;
  }
}
