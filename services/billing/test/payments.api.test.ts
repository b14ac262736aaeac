import type { ApiClient } from '@platform/testkit';
import { parseStripeForm } from './support/stripe-form';
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

describe('checkout sessions', () => {
  it('when a signed-in user starts checkout, then a session is made for their own Stripe customer', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const res = await call('post', '/pay/checkout/session', {
      headers: user.headers,
      body: { ...checkoutBody, metadata: { plan: 'basic' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      session: {
        id: expect.stringMatching(/^cs_test_/),
        url: expect.stringContaining('https://'),
        customer: expect.stringMatching(/^cus_/),
        mode: 'subscription',
      },
    });
    const customer = t.stripe.objects.get(res.body.session.customer)!;
    expect(customer.email).toBe(user.email);
    expect(customer.metadata).toEqual({
      tenantId: project.tenantId,
      projectId: project.projectId,
      userId: user.userId,
    });
    const sent = parseStripeForm(stripeCalls('/v1/checkout/sessions').at(-1)!.rawBody);
    expect(sent).toMatchObject({
      mode: 'subscription',
      customer: res.body.session.customer,
      line_items: [{ price: 'price_basic', quantity: '1' }],
      metadata: { plan: 'basic', tenantId: project.tenantId, projectId: project.projectId, userId: user.userId },
      subscription_data: { metadata: { tenantId: project.tenantId, projectId: project.projectId } },
    });
  });

  it('when the same user checks out again, then the same Stripe customer is reused', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const first = await call('post', '/pay/checkout/session', { headers: user.headers, body: checkoutBody });
    const second = await call('post', '/pay/checkout/session', {
      headers: user.headers,
      body: { ...checkoutBody, mode: 'payment' },
    });
    expect(second.body.session.customer).toBe(first.body.session.customer);
    const other = await call('post', '/pay/checkout/session', {
      headers: signedIn(project).headers,
      body: checkoutBody,
    });
    expect(other.body.session.customer).not.toBe(first.body.session.customer);
  });

  it('when customer_email is given on first use, then the new customer gets that email', async () => {
    const { project } = await configuredProject(t);
    const res = await call('post', '/pay/checkout/session', {
      headers: signedIn(project).headers,
      body: { ...checkoutBody, customer_email: 'billing@example.com' },
    });
    expect(t.stripe.objects.get(res.body.session.customer)!.email).toBe('billing@example.com');
  });

  it.each([
    ['line_items empty', { line_items: [] }],
    ['quantity zero', { line_items: [{ price: 'price_basic', quantity: 0 }] }],
    ['quantity not an integer', { line_items: [{ price: 'price_basic', quantity: 1.5 }] }],
    ['price missing', { line_items: [{ quantity: 1 }] }],
    ['mode unknown', { mode: 'donation' }],
    ['success_url not a URL', { success_url: 'not a url' }],
    ['cancel_url missing', { cancel_url: undefined }],
    ['billing_address_collection unknown', { billing_address_collection: 'sometimes' }],
  ])('when %s, then 400 before any call to Stripe', async (_name, change) => {
    const { project } = await configuredProject(t);
    const before = t.stripe.requests.length;
    const res = await call('post', '/pay/checkout/session', {
      headers: signedIn(project).headers,
      body: { ...checkoutBody, ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.length).toBeGreaterThan(0);
    expect(t.stripe.requests.length).toBe(before);
  });

  it("when Stripe refuses the request, then 400 with Stripe's message", async () => {
    const { project } = await configuredProject(t);
    const res = await call('post', '/pay/checkout/session', {
      headers: signedIn(project).headers,
      body: { ...checkoutBody, line_items: [{ price: 'nope_1', quantity: 1 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'line_items[0][price]' }] });
    expect(res.body.error.message).toContain("No such price: 'nope_1'");
  });

  it('when the session is looked up, then its status is returned', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const created = await call('post', '/pay/checkout/session', { headers: user.headers, body: checkoutBody });
    t.stripe.objects.get(created.body.session.id)!.status = 'complete';
    t.stripe.objects.get(created.body.session.id)!.payment_status = 'paid';
    const res = await call('get', `/pay/checkout/session/${created.body.session.id}`, { headers: user.headers });
    expect(res.status).toBe(200);
    expect(res.body.session).toMatchObject({ id: created.body.session.id, status: 'complete', payment_status: 'paid' });
  });

  it("when another project's session is looked up, then 404", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const created = await call('post', '/pay/checkout/session', {
      headers: signedIn(a.project).headers,
      body: checkoutBody,
    });
    const res = await call('get', `/pay/checkout/session/${created.body.session.id}`, {
      headers: signedIn(b.project).headers,
    });
    expect(res.status).toBe(404);
  });

  it('when an unknown session is looked up, then 404', async () => {
    const { project } = await configuredProject(t);
    const res = await call('get', '/pay/checkout/session/cs_test_unknown', { headers: signedIn(project).headers });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('payment intents', () => {
  it('when a payment intent is created, then both statements of the answer are returned', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const res = await call('post', '/pay/payment/intent', {
      headers: user.headers,
      body: {
        amount: 1999,
        currency: 'eur',
        description: 'Order 42',
        setup_future_usage: 'off_session',
        metadata: { order: 42 },
      },
    });
    expect(res.status).toBe(201);
    const { paymentIntent } = res.body;
    expect(paymentIntent).toMatchObject({
      id: expect.stringMatching(/^pi_/),
      status: 'requires_payment_method',
      amount: 1999,
      currency: 'eur',
    });
    expect(res.body).toMatchObject({
      success: true,
      client_secret: paymentIntent.client_secret,
      payment_intent_id: paymentIntent.id,
      status: 'requires_payment_method',
    });
    const stored = t.stripe.objects.get(paymentIntent.id)!;
    expect(stored.metadata).toEqual({
      order: '42',
      tenantId: project.tenantId,
      projectId: project.projectId,
      userId: user.userId,
    });
    expect(t.stripe.objects.get(stored.customer)!.metadata.userId).toBe(user.userId);
  });

  it.each([
    ['amount zero', { amount: 0 }],
    ['amount negative', { amount: -5 }],
    ['amount fractional', { amount: 10.5 }],
    ['amount a string', { amount: '100' }],
    ['amount missing', { amount: undefined }],
    ['currency upper case', { currency: 'USD' }],
    ['currency four letters', { currency: 'usdd' }],
    ['setup_future_usage unknown', { setup_future_usage: 'sometimes' }],
    ['receipt_email not an email', { receipt_email: 'nobody' }],
  ])('when %s, then 400 before any call to Stripe', async (_name, change) => {
    const { project } = await configuredProject(t);
    const before = t.stripe.requests.length;
    const res = await call('post', '/pay/payment/intent', {
      headers: signedIn(project).headers,
      body: { amount: 500, currency: 'usd', ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(t.stripe.requests.length).toBe(before);
  });

  it('when its status is asked, then id, status, amount and currency are returned', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const created = await call('post', '/pay/payment/intent', {
      headers: user.headers,
      body: { amount: 700, currency: 'usd' },
    });
    t.stripe.objects.get(created.body.payment_intent_id)!.status = 'succeeded';
    const res = await call('get', `/pay/payment/intent/${created.body.payment_intent_id}`, { headers: user.headers });
    expect(res.status).toBe(200);
    expect(res.body.paymentIntent).toEqual({
      id: created.body.payment_intent_id,
      status: 'succeeded',
      amount: 700,
      currency: 'usd',
    });
  });

  it("when another project's payment intent is asked for, then 404", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const created = await call('post', '/pay/payment/intent', {
      headers: signedIn(a.project).headers,
      body: { amount: 700, currency: 'usd' },
    });
    const res = await call('get', `/pay/payment/intent/${created.body.payment_intent_id}`, {
      headers: signedIn(b.project).headers,
    });
    expect(res.status).toBe(404);
  });

  it("when the body names another project's customer, then 404 and no intent is made", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const foreign = await call('post', '/pay/customers', {
      headers: a.project.headers,
      body: { email: 'a@example.com' },
    });
    const before = stripeCalls('/v1/payment_intents').length;
    const res = await call('post', '/pay/payment/intent', {
      headers: signedIn(b.project).headers,
      body: { amount: 700, currency: 'usd', customer: foreign.body.id },
    });
    expect(res.status).toBe(404);
    expect(stripeCalls('/v1/payment_intents').length).toBe(before);
  });
});

describe('customer portal', () => {
  it("when no customer is named, then the session is for the signed-in user's customer", async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const checkout = await call('post', '/pay/checkout/session', { headers: user.headers, body: checkoutBody });
    const res = await call('post', '/pay/customer-portal/session', {
      headers: user.headers,
      body: { return_url: 'https://app.example.com/account' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      session: {
        id: expect.stringMatching(/^bps_/),
        url: expect.stringContaining('https://'),
        customer: checkout.body.session.customer,
        return_url: 'https://app.example.com/account',
      },
    });
  });

  it("when another project's customer is named, then 404", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const foreign = await call('post', '/pay/customers', { headers: a.project.headers, body: {} });
    const res = await call('post', '/pay/customer-portal/session', {
      headers: signedIn(b.project).headers,
      body: { customer: foreign.body.id, return_url: 'https://app.example.com/account' },
    });
    expect(res.status).toBe(404);
  });

  it('when return_url is not a URL, then 400', async () => {
    const { project } = await configuredProject(t);
    const res = await call('post', '/pay/customer-portal/session', {
      headers: signedIn(project).headers,
      body: { return_url: 'back' },
    });
    expect(res.status).toBe(400);
  });
});
