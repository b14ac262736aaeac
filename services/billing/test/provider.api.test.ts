import request from 'supertest';
import type { ApiClient } from '@platform/testkit';
import {
  checkoutBody,
  configuredProject,
  newKey,
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
    expect((await call('put', '/pay/config', { headers: project.headers, body: { environment: 'test' } })).status).toBe(
      400,
    );
    const res = await call('put', '/pay/config', {
      headers: project.headers,
      body: { environment: 'prod', secretKey: newKey() },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the key is replaced, then the next call uses the new key at once', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    expect((await call('post', '/pay/checkout/session', { headers: user.headers, body: checkoutBody })).status).toBe(
      201,
    );
    const replacement = newKey();
    t.stripe.keys.add(replacement);
    await call('put', '/pay/config', {
      headers: project.headers,
      body: { environment: 'test', secretKey: replacement },
    });
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
    const live = await call('post', '/pay/checkout/session?environment=live', {
      headers: user.headers,
      body: checkoutBody,
    });
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
    const res = await call('post', '/pay/payment/intent', {
      headers: signedIn(project).headers,
      body: { amount: 100, currency: 'usd' },
    });
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
    expect(res.body.error).toMatchObject({
      code: 'VENDOR_ERROR',
      message: expect.stringContaining('Something went wrong on Stripe'),
    });
  });

  it('when Stripe cannot be reached, then 502 VENDOR_ERROR', async () => {
    const down = await startBilling();
    await down.stripe.close();
    try {
      const project = await down.svc.createProject();
      await down.api.call('put', '/pay/config', { headers: project.headers, body: { secretKey: newKey() } });
      const res = await down.api.call('post', '/pay/customers', { headers: project.headers, body: {} });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('VENDOR_ERROR');
    } finally {
      await down.svc.close();
    }
  });

  it('when environment is neither test nor live, then 400', async () => {
    const { project } = await configuredProject(t);
    const res = await call('post', '/pay/payment/intent?environment=staging', {
      headers: signedIn(project).headers,
      body: { amount: 1, currency: 'usd' },
    });
    expect(res.status).toBe(400);
  });
});

describe('the /v1/stripe alias', () => {
  it('when a /pay path is called as /stripe, then it answers the same', async () => {
    const { project } = await configuredProject(t);
    const user = signedIn(project);
    const created = await call('post', '/stripe/payment/intent', {
      headers: user.headers,
      body: { amount: 300, currency: 'usd' },
    });
    expect(created.status).toBe(201);
    const viaPay = await call('get', `/pay/payment/intent/${created.body.payment_intent_id}`, {
      headers: user.headers,
    });
    const viaStripe = await call('get', `/stripe/payment/intent/${created.body.payment_intent_id}`, {
      headers: user.headers,
    });
    expect(viaStripe.body).toEqual(viaPay.body);
    expect((await call('get', '/stripe/config', { headers: project.headers })).body.configured).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('when fetched, then it describes every endpoint, each /pay path also as /stripe', async () => {
    const res = await request(t.svc.app).get('/v1/openapi.json');
    const documented = Object.entries(res.body.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    const pay = [
      'put /pay/config',
      'get /pay/config',
      'post /pay/checkout/session',
      'get /pay/checkout/session/{session_id}',
      'post /pay/payment/intent',
      'get /pay/payment/intent/{payment_intent_id}',
      'post /pay/customer-portal/session',
      'post /pay/customers',
      'get /pay/customers',
      'get /pay/customers/{customer_id}',
      'put /pay/customers/{customer_id}',
      'delete /pay/customers/{customer_id}',
      'get /pay/account/status',
      'get /pay/subscriptions',
      'post /pay/webhooks/{tenant_id}/{project_id}',
    ];
    const expected = [...pay, ...pay.map((e) => e.replace(' /pay/', ' /stripe/')), 'get /customer/subscription'];
    expect(documented.sort()).toEqual(expected.sort());
  });
});
