import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { configuredProject, startBilling, type BillingTest } from './support/billing-test-service';

let t: BillingTest;
beforeAll(async () => {
  t = await startBilling();
});
afterAll(() => t.close());

type Configured = Awaited<ReturnType<typeof configuredProject>>;
const rand = () => randomBytes(6).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

/** A subscription of a new customer, told to the service by a signed Stripe event; `age` seconds old. */
async function subscribe(p: Configured, age: number, status = 'active') {
  const email = `sub-${rand()}@example.com`;
  const customer = await t.api.call('post', '/pay/customers', { headers: p.project.headers, body: { email } });
  t.stripe.put({ id: 'prod_pro', object: 'product', name: 'Pro plan' });
  const subscription = t.stripe.put({
    id: `sub_${rand()}`,
    object: 'subscription',
    customer: customer.body.id,
    status,
    cancel_at_period_end: false,
    canceled_at: null,
    created: now() - age,
    metadata: { tenantId: p.project.tenantId, projectId: p.project.projectId },
    items: {
      object: 'list',
      data: [
        { id: `si_${rand()}`, price: { id: 'price_pro', product: 'prod_pro' }, current_period_end: now() + 86400 },
      ],
    },
  });
  const payload = JSON.stringify({
    id: `evt_${rand()}`,
    object: 'event',
    type: 'customer.subscription.created',
    created: now(),
    livemode: false,
    data: { object: subscription },
  });
  const res = await t.api.call('post', `/pay/webhooks/${p.project.tenantId}/${p.project.projectId}`, {
    headers: {
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: p.webhookSecret }),
    },
    body: payload,
  });
  expect(res.status).toBe(200);
  return { id: subscription.id as string, email };
}

const list = (p: Configured, query = '') =>
  t.api.call('get', `/pay/subscriptions${query}`, { headers: p.project.headers });
const ids = (body: { subscriptions: { paySubscriptionId: string }[] }) =>
  body.subscriptions.map((s) => s.paySubscriptionId);

describe('listing subscriptions', () => {
  it('when a project lists its subscriptions, then they come newest first, page by page, and none of another project', async () => {
    const p = await configuredProject(t);
    const other = await configuredProject(t);
    const oldest = await subscribe(p, 300);
    const middle = await subscribe(p, 200, 'canceled');
    const newest = await subscribe(p, 100);
    const foreign = await subscribe(other, 50);

    const first = await list(p, '?limit=2');
    expect(first.status).toBe(200);
    expect(ids(first.body)).toEqual([newest.id, middle.id]);
    expect(first.body.subscriptions[0]).toMatchObject({ projectId: p.project.projectId, customerEmail: newest.email });
    const second = await list(p, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(ids(second.body)).toEqual([oldest.id]);
    expect(second.body.nextCursor).toBeNull();

    expect(ids((await list(p, '?status=canceled')).body)).toEqual([middle.id]);
    expect(ids((await list(p, `?customerEmail=${oldest.email.toUpperCase()}`)).body)).toEqual([oldest.id]);
    expect(ids((await list(p, '?environment=live')).body)).toEqual([]);
    expect(ids((await list(other)).body)).toEqual([foreign.id]);
    const alias = await t.api.call('get', '/stripe/subscriptions', { headers: p.project.headers });
    expect(ids(alias.body)).toEqual([newest.id, middle.id, oldest.id]);
  });

  it('when the query is not acceptable, then it is 400; without keys 401', async () => {
    const p = await configuredProject(t);
    for (const query of ['?limit=101', '?status=sleeping', '?cursor=bm9wZQ', '?environment=prod']) {
      const res = await list(p, query);
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    expect((await t.api.call('get', '/pay/subscriptions')).status).toBe(401);
  });
});
