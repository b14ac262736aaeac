import type { ApiClient } from '@platform/testkit';
import {
  checkoutBody,
  configuredProject,
  signedIn,
  startBilling,
  type BillingTest,
} from './support/billing-test-service';

let t: BillingTest;
let call: ApiClient['call'];

beforeAll(async () => {
  t = await startBilling();
  call = t.api.call;
});
afterAll(() => t.close());

const stripeCalls = (path: string) => t.stripe.requests.filter((r) => r.path.startsWith(path));
const returnUrl = 'https://app.example.com/account';

/** Two signed-in users of one project; A has a Stripe customer from a checkout. */
async function twoUsers() {
  const { project } = await configuredProject(t);
  const a = signedIn(project);
  const b = signedIn(project);
  const checkout = await call('post', '/pay/checkout/session', { headers: a.headers, body: checkoutBody });
  return { project, a, b, aCustomer: checkout.body.session.customer as string, aSession: checkout.body.session.id };
}

describe("the bearer's own customer", () => {
  it("when user B names user A's customer for a portal session, then 404 and Stripe opens no portal", async () => {
    const { b, aCustomer } = await twoUsers();
    const before = stripeCalls('/v1/billing_portal').length;
    const res = await call('post', '/pay/customer-portal/session', {
      headers: b.headers,
      body: { customer: aCustomer, return_url: returnUrl },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(stripeCalls('/v1/billing_portal').length).toBe(before);
  });

  it('when a user names their own customer for a portal session, then the session is for it', async () => {
    const { a, aCustomer } = await twoUsers();
    const res = await call('post', '/pay/customer-portal/session', {
      headers: a.headers,
      body: { customer: aCustomer, return_url: returnUrl },
    });
    expect(res.status).toBe(201);
    expect(res.body.session.customer).toBe(aCustomer);
  });

  it('when a user names a customer the project made without a user, then 404', async () => {
    const { project, a } = await twoUsers();
    const unbound = await call('post', '/pay/customers', {
      headers: project.headers,
      body: { email: 'c@example.com' },
    });
    const portal = await call('post', '/pay/customer-portal/session', {
      headers: a.headers,
      body: { customer: unbound.body.id, return_url: returnUrl },
    });
    expect(portal.status).toBe(404);
    const intent = await call('post', '/pay/payment/intent', {
      headers: a.headers,
      body: { amount: 700, currency: 'usd', customer: unbound.body.id },
    });
    expect(intent.status).toBe(404);
  });

  it("when user B names user A's customer for a payment intent, then 404 and no intent is made", async () => {
    const { b, aCustomer } = await twoUsers();
    const before = stripeCalls('/v1/payment_intents').length;
    const res = await call('post', '/pay/payment/intent', {
      headers: b.headers,
      body: { amount: 700, currency: 'usd', customer: aCustomer },
    });
    expect(res.status).toBe(404);
    expect(stripeCalls('/v1/payment_intents').length).toBe(before);
  });

  it("when user B reads user A's payment intent, then 404; A still reads it", async () => {
    const { a, b } = await twoUsers();
    const created = await call('post', '/pay/payment/intent', {
      headers: a.headers,
      body: { amount: 700, currency: 'usd' },
    });
    const path = `/pay/payment/intent/${created.body.payment_intent_id}`;
    expect((await call('get', path, { headers: b.headers })).status).toBe(404);
    expect((await call('get', path, { headers: a.headers })).status).toBe(200);
  });

  it("when user B reads user A's checkout session, then 404; A still reads it", async () => {
    const { a, b, aSession } = await twoUsers();
    const path = `/pay/checkout/session/${aSession}`;
    expect((await call('get', path, { headers: b.headers })).status).toBe(404);
    expect((await call('get', path, { headers: a.headers })).status).toBe(200);
  });
});
