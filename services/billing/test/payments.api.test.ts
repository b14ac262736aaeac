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
