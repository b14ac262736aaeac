/**
 * The services as deployed: six processes, real Postgres and RabbitMQ, local stand-ins for
 * the vendors. Each journey crosses services the way an app would.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { waitFor } from '@platform/testkit';
import { call, startPlatform, type E2EPlatform } from './harness/platform';
import { startOpenAiStandIn, startSendgridStandIn, tokenFrom } from './harness/stand-ins';
import { startStripeStub, type StripeStub } from '../services/billing/test/stripe-stub';

const describeE2E = process.env.TEST_DATABASE_URL && process.env.TEST_AMQP_URL ? describe : describe.skip;
jest.setTimeout(120_000);

describeE2E('journeys across the six services', () => {
  let platform: E2EPlatform;
  let sendgrid: Awaited<ReturnType<typeof startSendgridStandIn>>;
  let openai: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let stripe: StripeStub;
  const email = () => `user-${randomBytes(4).toString('hex')}@example.com`;
  const emailsTo = (to: string) => sendgrid.emails.filter((e) => e.to === to);

  beforeAll(async () => {
    sendgrid = await startSendgridStandIn();
    openai = await startOpenAiStandIn();
    stripe = await startStripeStub();
    platform = await startPlatform({
      vendorEnv: { SENDGRID_API_BASE: sendgrid.url, OPENAI_BASE_URL: openai.url, STRIPE_API_BASE: stripe.url },
      settings: { requireEmailVerification: true, appUrl: 'https://app.example.com' },
    });
    const provider = await call(`${platform.urls.mailer}/providers`, {
      method: 'POST',
      headers: platform.headers,
      body: {
        name: 'sendgrid',
        type: 'sendgrid',
        isDefault: true,
        config: { apiKey: 'SG.test-key', fromEmail: 'noreply@example.com' },
      },
    });
    expect(provider.status).toBe(201);
  });

  afterAll(async () => {
    await platform?.stop();
    await sendgrid?.close();
    await openai?.close();
    await stripe?.close();
  });

  it('1. sign up, verify from the emailed link, log in, refresh, log out', async () => {
    const address = email();
    const registered = await call(`${platform.urls.auth}/register`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address, password: 'correct horse battery' },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.user.emailVerified).toBe(false);

    const [verification] = await waitFor(() => emailsTo(address).length === 1 && emailsTo(address));
    expect(verification.text + verification.html).toContain('https://app.example.com/verify-email?token=');
    const verified = await call(`${platform.urls.auth}/verify-email`, {
      method: 'POST',
      body: { token: tokenFrom(verification) },
    });
    expect(verified.status).toBe(200);

    const login = await call(`${platform.urls.auth}/login`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address, password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.emailVerified).toBe(true);

    const refreshed = await call(`${platform.urls.auth}/refresh-token`, {
      method: 'POST',
      headers: platform.headers,
      body: { refreshToken: login.body.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refreshToken).not.toBe(login.body.refreshToken);

    const me = await call(`${platform.urls.auth}/me`, {
      headers: { authorization: `Bearer ${refreshed.body.accessToken}` },
    });
    expect(me.body.user.email).toBe(address);

    const out = await call(`${platform.urls.auth}/logout`, {
      method: 'POST',
      headers: platform.headers,
      body: { refreshToken: refreshed.body.refreshToken },
    });
    expect(out.status).toBe(200);
    const afterLogout = await call(`${platform.urls.auth}/refresh-token`, {
      method: 'POST',
      headers: platform.headers,
      body: { refreshToken: refreshed.body.refreshToken },
    });
    expect(afterLogout.status).toBe(401);
  });

  it('2. forgot password, reset with the emailed token, log in with the new password', async () => {
    const address = email();
    await call(`${platform.urls.auth}/register`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address, password: 'first password 1' },
    });
    await waitFor(() => emailsTo(address).length === 1);

    const forgot = await call(`${platform.urls.auth}/forgot-password`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address },
    });
    expect(forgot.status).toBe(200);
    const reset = await waitFor(() =>
      emailsTo(address).find((e) => (e.text + e.html).includes('/reset-password?token=')),
    );
    const changed = await call(`${platform.urls.auth}/reset-password`, {
      method: 'POST',
      headers: platform.headers,
      body: { token: tokenFrom(reset), password: 'second password 2' },
    });
    expect(changed.status).toBe(200);

    const oldLogin = await call(`${platform.urls.auth}/login`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address, password: 'first password 1' },
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await call(`${platform.urls.auth}/login`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address, password: 'second password 2' },
    });
    expect(newLogin.status).toBe(200);
  });

  it("3. checkout and payment intent with the user's bearer token, a Stripe webhook activates the subscription", async () => {
    const address = email();
    await call(`${platform.urls.auth}/register`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address, password: 'correct horse battery' },
    });
    const login = await call(`${platform.urls.auth}/login`, {
      method: 'POST',
      headers: platform.headers,
      body: { email: address, password: 'correct horse battery' },
    });
    const bearer = { ...platform.headers, authorization: `Bearer ${login.body.accessToken}` };

    const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
    const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
    stripe.keys.add(secretKey);
    const configured = await call(`${platform.urls.billing}/pay/config`, {
      method: 'PUT',
      headers: platform.headers,
      body: { environment: 'test', secretKey, webhookSecret },
    });
    expect(configured.status).toBe(200);

    const checkout = await call(`${platform.urls.billing}/pay/checkout/session`, {
      method: 'POST',
      headers: bearer,
      body: {
        line_items: [{ price: 'price_pro', quantity: 1 }],
        mode: 'subscription',
        success_url: 'https://app.example.com/ok',
        cancel_url: 'https://app.example.com/no',
      },
    });
    expect(checkout.status).toBe(201);
    const customerId = checkout.body.session.customer as string;
    expect(customerId).toMatch(/^cus_/);

    const intent = await call(`${platform.urls.billing}/pay/payment/intent`, {
      method: 'POST',
      headers: bearer,
      body: { amount: 1999, currency: 'usd' },
    });
    expect(intent.status).toBe(201);
    expect(intent.body.paymentIntent).toMatchObject({ amount: 1999, currency: 'usd' });
    const status = await call(`${platform.urls.billing}/pay/payment/intent/${intent.body.payment_intent_id}`, {
      headers: bearer,
    });
    expect(status.status).toBe(200);

    const subscriptionUrl = `${platform.urls.billing}/customer/subscription?customerEmail=${encodeURIComponent(address)}`;
    expect((await call(subscriptionUrl, { headers: platform.headers })).body).toMatchObject({ subscription: null });

    stripe.put({ id: 'prod_pro', object: 'product', name: 'Pro plan' });
    const subscription = stripe.put({
      id: `sub_${randomBytes(6).toString('hex')}`,
      object: 'subscription',
      customer: customerId,
      status: 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      created: Math.floor(Date.now() / 1000),
      metadata: { tenantId: platform.project.tenantId, projectId: platform.project.projectId },
      items: {
        object: 'list',
        data: [
          {
            id: 'si_1',
            price: { id: 'price_pro', nickname: null, product: 'prod_pro' },
            current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400,
          },
        ],
      },
    });
    const payload = JSON.stringify({
      id: `evt_${randomBytes(6).toString('hex')}`,
      object: 'event',
      type: 'customer.subscription.created',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: subscription },
    });
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', webhookSecret).update(`${t}.${payload}`).digest('hex')}`;
    const hook = await fetch(
      `${platform.urls.billing}/pay/webhooks/${platform.project.tenantId}/${platform.project.projectId}?environment=test`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      },
    );
    expect(hook.status).toBe(200);

    const active = await call(subscriptionUrl, { headers: platform.headers });
    expect(active.body.subscription).toMatchObject({
      status: 'active',
      paySubscriptionId: subscription.id,
      cancelAtPeriodEnd: false,
    });
  });

  it('4. a batch of completions with a signed webhook to a local receiver, then its results', async () => {
    const { startHttpStub } = await import('@platform/testkit');
    const receiver = await startHttpStub((_req, res) => {
      res.writeHead(200);
      res.end();
    });
    try {
      const configured = await call(`${platform.urls.llm}/providers`, {
        method: 'POST',
        headers: platform.headers,
        body: { providerType: 'openai', apiKey: 'sk-test-key' },
      });
      expect(configured.status).toBe(200);
      const requests = ['one', 'two', 'three'].map((word) => ({
        custom_id: word,
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: word }],
      }));
      const submitted = await call(`${platform.urls.llm}/batch`, {
        method: 'POST',
        headers: platform.headers,
        body: { requests, webhook_url: `${receiver.url}/hooks/batch` },
      });
      expect(submitted.status).toBe(201);
      const batchId = submitted.body.batchId;

      const delivery = await waitFor(() => receiver.requests.find((r) => r.path === '/hooks/batch'), {
        timeoutMs: 60_000,
      });
      const signature = String(delivery.headers['x-webhook-signature']);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(signature)!;
      const expected = createHmac('sha256', platform.project.webhookSecret)
        .update(`${t}.${delivery.rawBody}`)
        .digest('hex');
      expect(v1).toBe(expected);
      expect(delivery.body).toMatchObject({
        event: 'batch.completed',
        batchId,
        status: 'completed',
        requestCount: 3,
        completedCount: 3,
        failedCount: 0,
      });

      const results = await call(`${platform.urls.llm}/batch/${batchId}/results`, { headers: platform.headers });
      expect(results.status).toBe(200);
      expect(results.body.results.map((r: { custom_id: string }) => r.custom_id).sort()).toEqual([
        'one',
        'three',
        'two',
      ]);
      expect(results.body.results.find((r: { custom_id: string }) => r.custom_id === 'two').completion).toBe(
        'echo: two',
      );
    } finally {
      await receiver.close();
    }
  });

  it('5. publish content of a custom type and list it; broadcast a notification and read it as two users', async () => {
    const type = await call(`${platform.urls.cms}/content-types`, {
      method: 'POST',
      headers: platform.headers,
      body: {
        name: 'recipe',
        description: 'A recipe',
        schema: { type: 'object', required: ['servings'], properties: { servings: { type: 'integer', minimum: 1 } } },
      },
    });
    expect(type.status).toBe(201);
    const rejected = await call(`${platform.urls.cms}/content`, {
      method: 'POST',
      headers: platform.headers,
      body: { type: 'custom', contentType: 'recipe', title: 'Bad', content: JSON.stringify({ servings: 0 }) },
    });
    expect(rejected.status).toBe(400);
    const created = await call(`${platform.urls.cms}/content`, {
      method: 'POST',
      headers: platform.headers,
      body: {
        type: 'custom',
        contentType: 'recipe',
        title: 'Pancakes',
        content: JSON.stringify({ servings: 4 }),
        status: 'published',
      },
    });
    expect(created.status).toBe(201);
    const listed = await call(`${platform.urls.cms}/content?type=custom&status=published`, {
      headers: platform.headers,
    });
    expect(listed.body.content.map((c: { slug: string }) => c.slug)).toEqual(['pancakes']);

    const broadcast = await call(`${platform.urls.notifications}/notifications`, {
      method: 'POST',
      headers: platform.headers,
      body: { title: 'Maintenance', message: 'Tonight at 10', type: 'warning' },
    });
    expect(broadcast.status).toBe(201);
    const id = broadcast.body.id;
    const read = await call(`${platform.urls.notifications}/notifications/${id}/read?userId=ada`, {
      method: 'PATCH',
      headers: platform.headers,
    });
    expect(read.status).toBe(200);
    const asAda = await call(`${platform.urls.notifications}/notifications?userId=ada`, { headers: platform.headers });
    const asBob = await call(`${platform.urls.notifications}/notifications?userId=bob`, { headers: platform.headers });
    expect(asAda.body.notifications.find((n: { id: string }) => n.id === id).read).toBe(true);
    expect(asBob.body.notifications.find((n: { id: string }) => n.id === id).read).toBe(false);
  });

  it('fault: RabbitMQ goes away while users sign up; when it is back, each verification email is sent exactly once', async () => {
    platform.broker.cut();
    const addresses = Array.from({ length: 5 }, email);
    for (const address of addresses) {
      const res = await call(`${platform.urls.auth}/register`, {
        method: 'POST',
        headers: platform.headers,
        body: { email: address, password: 'correct horse battery' },
      });
      expect(res.status).toBe(201);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(addresses.flatMap(emailsTo)).toEqual([]);

    platform.broker.restore();
    await waitFor(() => addresses.every((a) => emailsTo(a).length >= 1), { timeoutMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const address of addresses) expect(emailsTo(address)).toHaveLength(1);
  });
});
