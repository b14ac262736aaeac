import type { Knex } from 'knex';
import type Stripe from 'stripe';
import { belongsElsewhere, stateOf, subscriptionIdOfInvoice } from './subscription-state';

const scope = { tenantId: 't1', projectId: 'p1', environment: 'test' as const };
// Everything stateOf needs is in the objects below, so it must not touch the database or Stripe.
const db = {} as Knex;
const stripe = {} as Stripe;

const subscription = (extra: Record<string, unknown>) =>
  ({
    id: 'sub_1',
    customer: { id: 'cus_1', email: 'a@example.com' },
    status: 'active',
    cancel_at_period_end: false,
    canceled_at: null,
    created: 1_700_000_000,
    items: {
      data: [{ price: { id: 'price_1', nickname: 'Gold', product: 'prod_1' }, current_period_end: 1_700_100_000 }],
    },
    ...extra,
  }) as unknown as Stripe.Subscription;

describe('stateOf', () => {
  it('when the period end sits on the item (API 2025-03 and later), then it is read from there', async () => {
    const state = await stateOf(db, scope, stripe, subscription({}));
    expect(state).toMatchObject({
      stripeSubscriptionId: 'sub_1',
      stripeCustomerId: 'cus_1',
      customerEmail: 'a@example.com',
      planId: 'price_1',
      planName: 'Gold',
      currentPeriodEnd: new Date(1_700_100_000 * 1000),
    });
  });

  it('when the period end sits on the subscription (older API versions), then that one is used', async () => {
    const state = await stateOf(db, scope, stripe, subscription({ current_period_end: 1_700_200_000 }));
    expect(state.currentPeriodEnd).toEqual(new Date(1_700_200_000 * 1000));
  });
});

describe('subscriptionIdOfInvoice', () => {
  it('when the invoice uses either API shape, then the subscription id is found', () => {
    const modern = { parent: { subscription_details: { subscription: 'sub_new' } } } as unknown as Stripe.Invoice;
    const legacy = { parent: null, subscription: 'sub_old' } as unknown as Stripe.Invoice;
    const none = { parent: null } as unknown as Stripe.Invoice;
    expect([subscriptionIdOfInvoice(modern), subscriptionIdOfInvoice(legacy), subscriptionIdOfInvoice(none)]).toEqual([
      'sub_new',
      'sub_old',
      null,
    ]);
  });
});

describe('belongsElsewhere', () => {
  it('when tags name another project, then true; when ours or untagged, then false', () => {
    expect(belongsElsewhere(scope, { tenantId: 't1', projectId: 'p2' })).toBe(true);
    expect(belongsElsewhere(scope, { tenantId: 't1', projectId: 'p1' })).toBe(false);
    expect(belongsElsewhere(scope, {})).toBe(false);
  });
});
