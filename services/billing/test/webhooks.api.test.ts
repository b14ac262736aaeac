import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { ApiClient } from '@platform/testkit';
import { configuredProject, newKey, startBilling, type BillingTest } from './support/billing-test-service';

let t: BillingTest;
let call: ApiClient['call'];

beforeAll(async () => {
  t = await startBilling();
  call = t.api.call;
});
afterAll(() => t.close());

const rand = () => randomBytes(6).toString('hex');
const now = () => Math.floor(Date.now() / 1000);
type Configured = Awaited<ReturnType<typeof configuredProject>>;

/** A Stripe customer of the project and a subscription of it, as they would sit in Stripe. */
async function subscriber(p: Configured, status = 'active') {
  const email = `Sub-${rand()}@Example.com`;
  const customer = await call('post', '/pay/customers', { headers: p.project.headers, body: { email } });
  t.stripe.put({ id: 'prod_pro', object: 'product', name: 'Pro plan' });
  const subscription = t.stripe.put({
    id: `sub_${rand()}`,
    object: 'subscription',
    customer: customer.body.id,
    status,
    cancel_at_period_end: false,
    canceled_at: null,
    created: now() - 60,
    metadata: { tenantId: p.project.tenantId, projectId: p.project.projectId },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${rand()}`,
          price: { id: 'price_pro', nickname: null, product: 'prod_pro' },
          current_period_end: now() + 30 * 86400,
        },
      ],
    },
  });
  return { email, customerId: customer.body.id as string, subscription };
}

const event = (type: string, object: object, extra: object = {}) => ({
  id: `evt_${rand()}`,
  object: 'event',
  type,
  created: now(),
  livemode: false,
  data: { object: JSON.parse(JSON.stringify(object)) },
  ...extra,
});

async function deliver(
  p: Configured,
  body: object,
  options: { secret?: string; signature?: string; payload?: string; environment?: string } = {},
) {
  const payload = options.payload ?? JSON.stringify(body);
  const signature =
    options.signature ??
    Stripe.webhooks.generateTestHeaderString({
      payload: JSON.stringify(body),
      secret: options.secret ?? p.webhookSecret,
    });
  const query = options.environment ? `?environment=${options.environment}` : '';
  return call('post', `/pay/webhooks/${p.project.tenantId}/${p.project.projectId}${query}`, {
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body: payload,
  });
}

const current = async (p: Configured, email: string) => {
  const res = await call('get', `/customer/subscription?customerEmail=${encodeURIComponent(email)}`, {
    headers: p.project.headers,
  });
  expect(res.status).toBe(200);
  return res.body.subscription;
};

describe('Stripe webhooks and the subscription answer', () => {
  it('when no webhook has arrived, then the subscription is null; after a signed subscription event, it is shown', async () => {
    const p = await configuredProject(t);
    const { email, customerId, subscription } = await subscriber(p);
    expect(await current(p, email)).toBeNull();
    const res = await deliver(p, event('customer.subscription.created', subscription));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: true, duplicate: false });
    expect(await current(p, email.toUpperCase())).toEqual({
      id: expect.any(String),
      tenantId: p.project.tenantId,
      projectId: p.project.projectId,
      environment: 'test',
      planId: 'price_pro',
      status: 'active',
      currentPeriodEnd: new Date(subscription.items.data[0].current_period_end * 1000).toISOString(),
      paySubscriptionId: subscription.id,
      customerId,
      customerEmail: email.toLowerCase(),
      cancelAtPeriodEnd: false,
      canceledAt: null,
      plan: { id: 'price_pro', name: 'Pro plan' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('when the payload was changed after signing, then 400 and nothing is stored', async () => {
    const p = await configuredProject(t);
    const { email, subscription } = await subscriber(p);
    const body = event('customer.subscription.created', subscription);
    const tampered = JSON.stringify({ ...body, data: { object: { ...subscription, status: 'trialing' } } });
    const res = await deliver(p, body, { payload: tampered });
    expect(res.status).toBe(400);
    expect(await current(p, email)).toBeNull();
    expect(await t.svc.deps.db('stripe_events').where({ event_id: body.id }).first()).toBeUndefined();
  });

  it('when the body is over 512 KB, then 413 and nothing is stored', async () => {
    const p = await configuredProject(t);
    const { subscription } = await subscriber(p);
    const body = { ...event('customer.subscription.created', subscription), padding: 'x'.repeat(600_000) };
    const res = await deliver(p, body);
    expect(res.status).toBe(413);
    expect(await t.svc.deps.db('stripe_events').where({ event_id: body.id }).first()).toBeUndefined();
  });

  it('when the signature is missing or made with another secret, then 400', async () => {
    const p = await configuredProject(t);
    const { subscription } = await subscriber(p);
    const body = event('customer.subscription.created', subscription);
    expect((await deliver(p, body, { signature: '' })).status).toBe(400);
    expect((await deliver(p, body, { secret: 'whsec_not_the_one' })).status).toBe(400);
    expect((await deliver(p, body, { signature: 't=1,v1=deadbeef' })).status).toBe(400);
  });

  it('when an event id is delivered again, then it is acknowledged as a duplicate and changes nothing', async () => {
    const p = await configuredProject(t);
    const { email, subscription } = await subscriber(p);
    const first = event('customer.subscription.created', subscription);
    await deliver(p, first);
    const replay = { ...first, created: first.created + 10, data: { object: { ...subscription, status: 'canceled' } } };
    const res = await deliver(p, replay);
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(true);
    expect((await current(p, email)).status).toBe('active');
  });

  it('when the subscription is updated and then deleted, then the answer follows, ending in null', async () => {
    const p = await configuredProject(t);
    const { email, subscription } = await subscriber(p);
    await deliver(p, event('customer.subscription.created', subscription, { created: now() - 20 }));
    await deliver(
      p,
      event('customer.subscription.updated', { ...subscription, cancel_at_period_end: true }, { created: now() - 10 }),
    );
    expect((await current(p, email)).cancelAtPeriodEnd).toBe(true);
    const canceledAt = now();
    await deliver(
      p,
      event('customer.subscription.deleted', { ...subscription, status: 'canceled', canceled_at: canceledAt }),
    );
    expect(await current(p, email)).toBeNull();
    const row = await t.svc.deps.db('subscriptions').where({ stripe_subscription_id: subscription.id }).first();
    expect(row.status).toBe('canceled');
    expect(row.canceled_at.toISOString()).toBe(new Date(canceledAt * 1000).toISOString());
  });

  it('when an older event arrives after a newer one, then the newer state stays', async () => {
    const p = await configuredProject(t);
    const { email, subscription } = await subscriber(p);
    await deliver(
      p,
      event('customer.subscription.updated', { ...subscription, cancel_at_period_end: true }, { created: now() }),
    );
    await deliver(p, event('customer.subscription.created', subscription, { created: now() - 100 }));
    expect((await current(p, email)).cancelAtPeriodEnd).toBe(true);
  });

  it('when invoices fail and are then paid, then the state is read fresh from Stripe each time', async () => {
    const p = await configuredProject(t);
    const { email, subscription } = await subscriber(p);
    const invoice = (type: string, created: number) =>
      event(
        type,
        {
          id: `in_${rand()}`,
          object: 'invoice',
          customer_email: email,
          parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
        },
        { created },
      );
    subscription.status = 'past_due';
    await deliver(p, invoice('invoice.payment_failed', now() - 5));
    expect(await current(p, email)).toBeNull();
    subscription.status = 'active';
    await deliver(p, invoice('invoice.paid', now()));
    expect((await current(p, email)).status).toBe('active');
  });

  it('when a subscription checkout completes, then the subscription is recorded under the checkout email', async () => {
    const p = await configuredProject(t);
    const { subscription } = await subscriber(p, 'trialing');
    const res = await deliver(
      p,
      event('checkout.session.completed', {
        id: `cs_test_${rand()}`,
        object: 'checkout.session',
        mode: 'subscription',
        subscription: subscription.id,
        customer: subscription.customer,
        customer_details: { email: 'buyer@example.com' },
        metadata: { tenantId: p.project.tenantId, projectId: p.project.projectId },
      }),
    );
    expect(res.status).toBe(200);
    expect(await current(p, 'buyer@example.com')).toMatchObject({
      status: 'trialing',
      paySubscriptionId: subscription.id,
    });
  });

  it("when an event is about another project's subscription, then it is acknowledged and ignored", async () => {
    const p = await configuredProject(t);
    const { email, subscription } = await subscriber(p);
    subscription.metadata = { tenantId: p.project.tenantId, projectId: 'another-project' };
    const res = await deliver(p, event('customer.subscription.created', subscription));
    expect(res.status).toBe(200);
    expect(await current(p, email)).toBeNull();
  });

  it('when a customer is deleted in Stripe, then the project no longer shows it', async () => {
    const p = await configuredProject(t);
    const created = await call('post', '/pay/customers', { headers: p.project.headers, body: {} });
    await deliver(p, event('customer.deleted', { id: created.body.id, object: 'customer', deleted: true }));
    const list = await call('get', '/pay/customers', { headers: p.project.headers });
    expect(list.body.customers).toEqual([]);
    expect((await call('get', `/pay/customers/${created.body.id}`, { headers: p.project.headers })).status).toBe(404);
  });

  it('when another event type arrives, then it is acknowledged', async () => {
    const p = await configuredProject(t);
    const res = await deliver(p, event('charge.refunded', { id: `ch_${rand()}`, object: 'charge' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: true, duplicate: false, type: 'charge.refunded' });
  });

  it('when the project is unknown, then 404; without a webhook secret for the environment, 403', async () => {
    const p = await configuredProject(t);
    const body = event('charge.refunded', { id: 'ch_1', object: 'charge' });
    const unknown = { ...p, project: { ...p.project, projectId: '00000000-0000-4000-8000-000000000000' } };
    expect((await deliver(unknown, body)).status).toBe(404);
    const live = await deliver(p, body, { environment: 'live' });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
  });

  it('when another project asks about the same email, then it sees null', async () => {
    const p = await configuredProject(t);
    const other = await configuredProject(t);
    const { email, subscription } = await subscriber(p);
    await deliver(p, event('customer.subscription.created', subscription));
    expect(await current(p, email)).not.toBeNull();
    expect(await current(other, email)).toBeNull();
  });

  it('when customerEmail is missing or the keys are missing, then 400 or 401', async () => {
    const p = await configuredProject(t);
    expect((await call('get', '/customer/subscription', { headers: p.project.headers })).status).toBe(400);
    expect((await call('get', '/customer/subscription?customerEmail=a@example.com')).status).toBe(401);
  });
});

describe('account status', () => {
  it('when the live key is configured, then the account, its requirements and its issues are shown (live by default)', async () => {
    const p = await configuredProject(t, 'live');
    const res = await call('get', '/pay/account/status', { headers: p.project.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      configured: true,
      ready: false,
      environment: 'live',
      account: {
        id: 'acct_stub',
        email: 'owner@example.com',
        country: 'US',
        default_currency: 'usd',
        charges_enabled: true,
        payouts_enabled: false,
        details_submitted: true,
        type: 'standard',
      },
      requirements: { currently_due: ['external_account'], eventually_due: [], past_due: [], disabled_reason: null },
    });
    expect(res.body.issues).toEqual(
      expect.arrayContaining([expect.stringContaining('Payouts'), expect.stringContaining('external_account')]),
    );
    expect(t.stripe.requests.at(-1)!.path).toBe('/v1/account');
  });

  it('when only test keys exist, then the default (live) answer is configured false, and test is configured', async () => {
    const p = await configuredProject(t, 'test');
    const live = await call('get', '/pay/account/status', { headers: p.project.headers });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ configured: false, ready: false, account: null, environment: 'live' });
    const test = await call('get', '/stripe/account/status?environment=test', { headers: p.project.headers });
    expect(test.body).toMatchObject({ configured: true, environment: 'test' });
  });

  it('when Stripe rejects the key, then 403 PROVIDER_NOT_CONFIGURED', async () => {
    const project = await t.svc.createProject();
    await call('put', '/pay/config', {
      headers: project.headers,
      body: { environment: 'live', secretKey: newKey('live') },
    });
    const res = await call('get', '/pay/account/status', { headers: project.headers });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
  });
});
