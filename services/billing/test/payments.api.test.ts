import { parseStripeForm } from './form';
import { api, configuredProject, newKey, signedIn, startBilling, type BillingTest } from './helpers';

let t: BillingTest;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  t = await startBilling();
  call = api(t);
});
afterAll(() => t.close());

const checkoutBody = {
  line_items: [{ price: 'price_basic', quantity: 1 }],
  mode: 'subscription',
  success_url: 'https://app.example.com/success',
  cancel_url: 'https://app.example.com/cancel',
};

const stripeCalls = (path: string) => t.stripe.requests.filter((r) => r.path.startsWith(path));

describe('Stripe configuration', () => {
  it('when keys are stored, then GET shows which environments are configured and never the keys', async () => {
    const { project, secretKey, webhookSecret } = await configuredProject(t, 'test');
    const res = await call('get', '/pay/config', { headers: project.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ environment: 'test', configured: true, webhookConfigured: true });
    expect(res.body.environments).toEqual([
      expect.objectContaining({ environment: 'test', configured: true }),
      expect.objectContaining({ environment: 'live', configured: false, webhookConfigured: false, updatedAt: null }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain(secretKey);
    expect(JSON.stringify(res.body)).not.toContain(webhookSecret);
  });

  it('when keys are stored, then they are encrypted at rest', async () => {
    const { project, secretKey } = await configuredProject(t, 'live');
    const row = await t.svc.deps.db('stripe_configs').where({ project_id: project.projectId }).first();
    expect(row.environment).toBe('live');
    expect(row.secret_key_enc).not.toContain(secretKey);
    expect(t.svc.deps.secrets.decrypt(row.secret_key_enc)).toBe(secretKey);
  });

  it('when the body lacks secretKey or names an unknown environment, then 400', async () => {
    const project = await t.svc.createProject();
    expect((await call('put', '/pay/config', { headers: project.headers, body: { environment: 'test' } })).status).toBe(400);
    const res = await call('put', '/pay/config', { headers: project.headers, body: { environment: 'prod', secretKey: newKey() } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the key is replaced, then the next call uses the new key at once', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    expect((await call('post', '/pay/checkout/session', { headers: user.headers, body: checkoutBody })).status).toBe(201);
    const replacement = newKey();
    t.stripe.keys.add(replacement);
    await call('put', '/pay/config', { headers: project.headers, body: { environment: 'test', secretKey: replacement } });
    await call('post', '/pay/checkout/session', { headers: user.headers, body: checkoutBody });
    expect(t.stripe.requests.at(-1)!.headers.authorization).toBe(`Bearer ${replacement}`);
  });

  it('when the webhook secret is left out of an update, then the stored one is kept', async () => {
    const { project } = await configuredProject(t);
    const res = await call('put', '/pay/config', { headers: project.headers, body: { secretKey: newKey() } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ environment: 'test', configured: true, webhookConfigured: true });
  });

  it('when the keys are missing, then 401', async () => {
    expect((await call('get', '/pay/config')).status).toBe(401);
  });
});

describe('checkout sessions', () => {
  it('when a signed-in user starts checkout, then a session is made for their own Stripe customer', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const res = await call('post', '/pay/checkout/session', { headers: user.headers, body: { ...checkoutBody, metadata: { plan: 'basic' } } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      session: { id: expect.stringMatching(/^cs_test_/), url: expect.stringContaining('https://'), customer: expect.stringMatching(/^cus_/), mode: 'subscription' },
    });
    const customer = t.stripe.objects.get(res.body.session.customer)!;
    expect(customer.email).toBe(user.email);
    expect(customer.metadata).toEqual({ tenantId: project.tenantId, projectId: project.projectId, userId: user.userId });
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
    const second = await call('post', '/pay/checkout/session', { headers: user.headers, body: { ...checkoutBody, mode: 'payment' } });
    expect(second.body.session.customer).toBe(first.body.session.customer);
    const other = await call('post', '/pay/checkout/session', { headers: signedIn(project).headers, body: checkoutBody });
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
    const res = await call('post', '/pay/checkout/session', { headers: signedIn(project).headers, body: { ...checkoutBody, ...change } });
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
    const created = await call('post', '/pay/checkout/session', { headers: signedIn(a.project).headers, body: checkoutBody });
    const res = await call('get', `/pay/checkout/session/${created.body.session.id}`, { headers: signedIn(b.project).headers });
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
      body: { amount: 1999, currency: 'eur', description: 'Order 42', setup_future_usage: 'off_session', metadata: { order: 42 } },
    });
    expect(res.status).toBe(201);
    const { paymentIntent } = res.body;
    expect(paymentIntent).toMatchObject({ id: expect.stringMatching(/^pi_/), status: 'requires_payment_method', amount: 1999, currency: 'eur' });
    expect(res.body).toMatchObject({
      success: true,
      client_secret: paymentIntent.client_secret,
      payment_intent_id: paymentIntent.id,
      status: 'requires_payment_method',
    });
    const stored = t.stripe.objects.get(paymentIntent.id)!;
    expect(stored.metadata).toEqual({ order: '42', tenantId: project.tenantId, projectId: project.projectId, userId: user.userId });
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
    const res = await call('post', '/pay/payment/intent', { headers: signedIn(project).headers, body: { amount: 500, currency: 'usd', ...change } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(t.stripe.requests.length).toBe(before);
  });

  it('when its status is asked, then id, status, amount and currency are returned', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const created = await call('post', '/pay/payment/intent', { headers: user.headers, body: { amount: 700, currency: 'usd' } });
    t.stripe.objects.get(created.body.payment_intent_id)!.status = 'succeeded';
    const res = await call('get', `/pay/payment/intent/${created.body.payment_intent_id}`, { headers: user.headers });
    expect(res.status).toBe(200);
    expect(res.body.paymentIntent).toEqual({ id: created.body.payment_intent_id, status: 'succeeded', amount: 700, currency: 'usd' });
  });

  it("when another project's payment intent is asked for, then 404", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const created = await call('post', '/pay/payment/intent', { headers: signedIn(a.project).headers, body: { amount: 700, currency: 'usd' } });
    const res = await call('get', `/pay/payment/intent/${created.body.payment_intent_id}`, { headers: signedIn(b.project).headers });
    expect(res.status).toBe(404);
  });

  it("when the body names another project's customer, then 404 and no intent is made", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const foreign = await call('post', '/pay/customers', { headers: a.project.headers, body: { email: 'a@example.com' } });
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
    const res = await call('post', '/pay/customer-portal/session', { headers: user.headers, body: { return_url: 'https://app.example.com/account' } });
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

  it('when a customer of the project is named, then the session is for that customer', async () => {
    const { project } = await configuredProject(t);
    const customer = await call('post', '/pay/customers', { headers: project.headers, body: { email: 'c@example.com' } });
    const res = await call('post', '/pay/customer-portal/session', {
      headers: signedIn(project).headers,
      body: { customer: customer.body.id, return_url: 'https://app.example.com/account' },
    });
    expect(res.status).toBe(201);
    expect(res.body.session.customer).toBe(customer.body.id);
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
    const res = await call('post', '/pay/customer-portal/session', { headers: signedIn(project).headers, body: { return_url: 'back' } });
    expect(res.status).toBe(400);
  });
});

describe('credentials and provider state', () => {
  const paymentCalls = (headers: Record<string, string>) => [
    call('post', '/pay/checkout/session', { headers, body: checkoutBody }),
    call('get', '/pay/checkout/session/cs_test_x', { headers }),
    call('post', '/pay/payment/intent', { headers, body: { amount: 100, currency: 'usd' } }),
    call('get', '/pay/payment/intent/pi_x', { headers }),
    call('post', '/pay/customer-portal/session', { headers, body: { return_url: 'https://app.example.com' } }),
  ];

  it('when the bearer token is missing, then 401 on every endpoint that needs it', async () => {
    const { project } = await configuredProject(t);
    for (const res of await Promise.all(paymentCalls(project.headers))) expect(res.status).toBe(401);
  });

  it("when project A's token comes with project B's keys, then 401", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const headers = { ...b.project.headers, authorization: signedIn(a.project).headers.authorization };
    for (const res of await Promise.all(paymentCalls(headers))) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('when the project has no Stripe keys for the environment, then 403 PROVIDER_NOT_CONFIGURED', async () => {
    const { project } = await configuredProject(t, 'test');
    const user = signedIn(project);
    const live = await call('post', '/pay/checkout/session?environment=live', { headers: user.headers, body: checkoutBody });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    const unconfigured = signedIn(await t.svc.createProject());
    for (const res of await Promise.all(paymentCalls(unconfigured.headers))) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    }
    const customers = await call('get', '/pay/customers', { headers: unconfigured.headers });
    expect(customers.status).toBe(403);
  });

  it('when Stripe rejects the stored key, then 403 PROVIDER_NOT_CONFIGURED and the key is not echoed', async () => {
    const project = await t.svc.createProject();
    const rejected = newKey();
    await call('put', '/pay/config', { headers: project.headers, body: { environment: 'test', secretKey: rejected } });
    const res = await call('post', '/pay/payment/intent', { headers: signedIn(project).headers, body: { amount: 100, currency: 'usd' } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(JSON.stringify(res.body)).not.toContain(rejected.slice(-4));
    expect(JSON.stringify(res.body)).not.toContain('sk_test');
  });

  it('when Stripe fails on its side, then 500 VENDOR_ERROR', async () => {
    const project = await t.svc.createProject();
    const failing = `sk_test_apierror_${newKey()}`;
    t.stripe.keys.add(failing);
    await call('put', '/pay/config', { headers: project.headers, body: { secretKey: failing } });
    const res = await call('post', '/pay/customers', { headers: project.headers, body: {} });
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ code: 'VENDOR_ERROR', message: expect.stringContaining('Something went wrong on Stripe') });
  });

  it('when Stripe cannot be reached, then 502 VENDOR_ERROR', async () => {
    const down = await startBilling();
    await down.stripe.close();
    try {
      const project = await down.svc.createProject();
      await api(down)('put', '/pay/config', { headers: project.headers, body: { secretKey: newKey() } });
      const res = await api(down)('post', '/pay/customers', { headers: project.headers, body: {} });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('VENDOR_ERROR');
    } finally {
      await down.svc.close();
    }
  });

  it('when environment is neither test nor live, then 400', async () => {
    const { project } = await configuredProject(t);
    const res = await call('post', '/pay/payment/intent?environment=staging', { headers: signedIn(project).headers, body: { amount: 1, currency: 'usd' } });
    expect(res.status).toBe(400);
  });
});

describe('the /v1/stripe alias', () => {
  it('when a /pay path is called as /stripe, then it answers the same', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const created = await call('post', '/stripe/payment/intent', { headers: user.headers, body: { amount: 300, currency: 'usd' } });
    expect(created.status).toBe(201);
    const viaPay = await call('get', `/pay/payment/intent/${created.body.payment_intent_id}`, { headers: user.headers });
    const viaStripe = await call('get', `/stripe/payment/intent/${created.body.payment_intent_id}`, { headers: user.headers });
    expect(viaStripe.body).toEqual(viaPay.body);
    expect((await call('get', '/stripe/config', { headers: project.headers })).body.configured).toBe(true);
  });
});
