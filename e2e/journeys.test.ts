/**
 * The services as deployed: six processes, real Postgres and RabbitMQ, local stand-ins for
 * the vendors. Each journey crosses services the way an app would, through @platform/client.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createClient, type PlatformClient } from '@platform/client';
import { createDb } from '@platform/db';
import { waitFor } from '@platform/testkit';
import { startPlatform, type E2EPlatform } from './harness/platform';
import { startOpenAiStandIn, startSendgridStandIn, tokenFrom } from './harness/stand-ins';
import { startStripeStub, type StripeStub } from '../services/billing/test/support/stripe-stub';

/** The tokens of a login answer; these journeys' users have no second factor, so a challenge is a failure. */
function tokensOf<T extends object>(data: T | undefined): Extract<T, { accessToken: string }> {
  if (!data || !('accessToken' in data)) throw new Error(`expected tokens, got ${JSON.stringify(data)}`);
  return data as Extract<T, { accessToken: string }>;
}

const describeE2E = process.env.TEST_DATABASE_URL && process.env.TEST_AMQP_URL ? describe : describe.skip;
jest.setTimeout(120_000);

describeE2E('journeys across the six services', () => {
  let platform: E2EPlatform;
  let sendgrid: Awaited<ReturnType<typeof startSendgridStandIn>>;
  let openai: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let stripe: StripeStub;
  const email = () => `user-${randomBytes(4).toString('hex')}@example.com`;
  const emailsTo = (to: string) => sendgrid.emails.filter((e) => e.to === to);
  const anonymousClient = () => createClient({ urls: platform.urls });
  /** The app's server side: the project's keys. */
  let api: PlatformClient;
  /** A signed-in user's client (the project keys too, for billing's KEYS + BEARER routes). */
  const asUser = (accessToken: string, refreshToken?: string) =>
    createClient({ urls: platform.urls, keys: platform.project, session: { accessToken, refreshToken } });

  beforeAll(async () => {
    sendgrid = await startSendgridStandIn();
    openai = await startOpenAiStandIn();
    stripe = await startStripeStub();
    platform = await startPlatform({
      vendorEnv: { SENDGRID_API_BASE: sendgrid.url, OPENAI_BASE_URL: openai.url, STRIPE_API_BASE: stripe.url },
      settings: { requireEmailVerification: true, appUrl: 'https://app.example.com' },
    });
    api = createClient({ urls: platform.urls, keys: platform.project });
    const provider = await api.mailer.postProviders({
      body: {
        name: 'sendgrid',
        type: 'sendgrid',
        isDefault: true,
        config: { apiKey: 'SG.test-key', fromEmail: 'noreply@example.com' },
      },
    });
    expect(provider.response.status).toBe(201);
    // Six cold starts on a loaded machine can take minutes.
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await sendgrid?.close();
    await openai?.close();
    await stripe?.close();
  });

  it('1. sign up, verify from the emailed link, log in, refresh, log out', async () => {
    const address = email();
    const registered = await api.auth.postRegister({ body: { email: address, password: 'correct horse battery' } });
    expect(registered.response.status).toBe(201);
    expect(registered.data?.user.emailVerified).toBe(false);

    const [verification] = await waitFor(() => emailsTo(address).length === 1 && emailsTo(address));
    expect(verification.text + verification.html).toContain('https://app.example.com/verify-email?token=');
    // The emailed link is opened without the project's keys.
    const verified = await anonymousClient().auth.postVerifyEmail({ body: { token: tokenFrom(verification) } });
    expect(verified.response.status).toBe(200);

    const login = await api.auth.postLogin({ body: { email: address, password: 'correct horse battery' } });
    expect(login.response.status).toBe(200);
    const session = tokensOf(login.data);
    expect(session.user.emailVerified).toBe(true);

    const refreshed = await api.auth.postRefreshToken({ body: { refreshToken: session.refreshToken } });
    expect(refreshed.response.status).toBe(200);
    expect(refreshed.data!.refreshToken).not.toBe(session.refreshToken);

    const me = await createClient({ urls: platform.urls, session: refreshed.data! }).auth.getMe();
    expect(me.data?.user.email).toBe(address);

    const out = await api.auth.postLogout({ body: { refreshToken: refreshed.data!.refreshToken } });
    expect(out.response.status).toBe(200);
    const afterLogout = await api.auth.postRefreshToken({ body: { refreshToken: refreshed.data!.refreshToken } });
    expect(afterLogout.response.status).toBe(401);
  });

  it('2. forgot password, reset with the emailed token, log in with the new password', async () => {
    const address = email();
    await api.auth.postRegister({ body: { email: address, password: 'first password 1' } });
    await waitFor(() => emailsTo(address).length === 1);

    const forgot = await api.auth.postForgotPassword({ body: { email: address } });
    expect(forgot.response.status).toBe(200);
    const reset = await waitFor(() =>
      emailsTo(address).find((e) => (e.text + e.html).includes('/reset-password?token=')),
    );
    const changed = await api.auth.postResetPassword({
      body: { token: tokenFrom(reset), password: 'second password 2' },
    });
    expect(changed.response.status).toBe(200);

    const oldLogin = await api.auth.postLogin({ body: { email: address, password: 'first password 1' } });
    expect(oldLogin.response.status).toBe(401);
    expect(oldLogin.error?.error.code).toBe('INVALID_CREDENTIALS');
    const newLogin = await api.auth.postLogin({ body: { email: address, password: 'second password 2' } });
    expect(newLogin.response.status).toBe(200);
  });

  it("3. checkout and payment intent with the user's bearer token, a Stripe webhook activates the subscription", async () => {
    const address = email();
    await api.auth.postRegister({ body: { email: address, password: 'correct horse battery' } });
    const login = tokensOf(
      (await api.auth.postLogin({ body: { email: address, password: 'correct horse battery' } })).data,
    );
    const user = asUser(login.accessToken, login.refreshToken);

    const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
    const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
    stripe.keys.add(secretKey);
    const configured = await api.billing.putStripeConfig({ body: { environment: 'test', secretKey, webhookSecret } });
    expect(configured.response.status).toBe(200);

    const checkout = await user.billing.createCheckoutSession({
      body: {
        line_items: [{ price: 'price_pro', quantity: 1 }],
        mode: 'subscription',
        success_url: 'https://app.example.com/ok',
        cancel_url: 'https://app.example.com/no',
      },
    });
    expect(checkout.response.status).toBe(201);
    const customerId = checkout.data!.session.customer;
    expect(customerId).toMatch(/^cus_/);

    const intent = await user.billing.createPaymentIntent({ body: { amount: 1999, currency: 'usd' } });
    expect(intent.response.status).toBe(201);
    expect(intent.data!.paymentIntent).toMatchObject({ amount: 1999, currency: 'usd' });
    const status = await user.billing.getPaymentIntent({
      params: { path: { payment_intent_id: intent.data!.payment_intent_id } },
    });
    expect(status.response.status).toBe(200);

    const subscriptionOf = () => api.billing.getCustomerSubscription({ params: { query: { customerEmail: address } } });
    expect((await subscriptionOf()).data).toMatchObject({ subscription: null });

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
    const event = {
      id: `evt_${randomBytes(6).toString('hex')}`,
      object: 'event',
      type: 'customer.subscription.created',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: subscription },
    };
    // The client sends the body as JSON.stringify writes it: the bytes Stripe would have signed.
    const t = Math.floor(Date.now() / 1000);
    const signed = createHmac('sha256', webhookSecret)
      .update(`${t}.${JSON.stringify(event)}`)
      .digest('hex');
    const hook = await anonymousClient().billing.receiveStripeWebhook({
      params: {
        path: { tenant_id: platform.project.tenantId, project_id: platform.project.projectId },
        query: { environment: 'test' },
      },
      body: event,
      headers: { 'stripe-signature': `t=${t},v1=${signed}` },
    });
    expect(hook.response.status).toBe(200);

    const active = await subscriptionOf();
    expect(active.data?.subscription).toMatchObject({
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
      const configured = await api.llm.postProviders({ body: { providerType: 'openai', apiKey: 'sk-test-key' } });
      expect(configured.response.status).toBe(200);
      const requests = ['one', 'two', 'three'].map((word) => ({
        custom_id: word,
        model: 'gpt-4o-mini',
        messages: [{ role: 'user' as const, content: word }],
      }));
      const submitted = await api.llm.postBatch({ body: { requests, webhook_url: `${receiver.url}/hooks/batch` } });
      expect(submitted.response.status).toBe(201);
      const batchId = submitted.data!.batchId;

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

      const results = await api.llm.getBatchByBatchIdResults({ params: { path: { batch_id: batchId } } });
      expect(results.response.status).toBe(200);
      expect(results.data!.results.map((r) => r.custom_id).sort()).toEqual(['one', 'three', 'two']);
      expect(results.data!.results.find((r) => r.custom_id === 'two')?.completion).toBe('echo: two');
    } finally {
      await receiver.close();
    }
  });

  it('5. publish content of a custom type and list it; broadcast a notification and read it as two users', async () => {
    const type = await api.cms.postContentTypes({
      body: {
        name: 'recipe',
        description: 'A recipe',
        schema: { type: 'object', required: ['servings'], properties: { servings: { type: 'integer', minimum: 1 } } },
      },
    });
    expect(type.response.status).toBe(201);
    const rejected = await api.cms.postContent({
      body: { type: 'custom', contentType: 'recipe', title: 'Bad', content: JSON.stringify({ servings: 0 }) },
    });
    expect(rejected.response.status).toBe(400);
    expect(rejected.error?.error.code).toBe('VALIDATION_ERROR');
    const created = await api.cms.postContent({
      body: {
        type: 'custom',
        contentType: 'recipe',
        title: 'Pancakes',
        content: JSON.stringify({ servings: 4 }),
        status: 'published',
      },
    });
    expect(created.response.status).toBe(201);
    const listed = await api.cms.getContent({ params: { query: { type: 'custom', status: 'published' } } });
    expect(listed.data!.content.map((c) => c.slug)).toEqual(['pancakes']);

    const broadcast = await api.notifications.postNotifications({
      body: { title: 'Maintenance', message: 'Tonight at 10', type: 'warning' },
    });
    expect(broadcast.response.status).toBe(201);
    const id = broadcast.data!.id;
    const read = await api.notifications.patchNotificationsByIdRead({
      params: { path: { id }, query: { userId: 'ada' } },
    });
    expect(read.response.status).toBe(200);
    const asAda = await api.notifications.getNotifications({ params: { query: { userId: 'ada' } } });
    const asBob = await api.notifications.getNotifications({ params: { query: { userId: 'bob' } } });
    expect(asAda.data!.notifications.find((n) => n.id === id)?.read).toBe(true);
    expect(asBob.data!.notifications.find((n) => n.id === id)?.read).toBe(false);
  });

  it('fault: RabbitMQ goes away while users sign up; when it is back, each verification email is sent exactly once', async () => {
    const authDb = createDb({ url: platform.databaseUrls.auth, poolMax: 1 });
    /** Sign-ups of these addresses still in auth's outbox; a sent one is deleted there (it carries a link). */
    const unsent = async (to: string[]) => {
      const { rows } = await authDb.raw(
        `select count(*) as n from outbox where published_at is null and envelope->'data'->>'email' = any(?)`,
        [to],
      );
      return Number(rows[0].n);
    };
    const authReadiness = async () => {
      const auth = platform.processes.find((p) => p.name === 'auth')!;
      return (await (await fetch(`${auth.url}/readyz`)).json()) as { broker: string };
    };
    try {
      platform.broker.cut();
      await waitFor(async () => (await authReadiness()).broker === 'down');
      const addresses = Array.from({ length: 5 }, email);
      for (const address of addresses) {
        const res = await api.auth.postRegister({ body: { email: address, password: 'correct horse battery' } });
        expect(res.response.status).toBe(201);
      }
      // Every sign-up waits in auth's outbox while the broker is away, so no e-mail can have gone.
      expect(await unsent(addresses)).toBe(addresses.length);
      expect(addresses.flatMap(emailsTo)).toEqual([]);

      platform.broker.restore();
      await waitFor(() => addresses.every((a) => emailsTo(a).length >= 1), { timeoutMs: 60_000 });
      // No copy is left to come: auth's relay has nothing more of them to send, and a sign-up
      // made after that reaches the mailer's queue behind anything of theirs still in it.
      await waitFor(async () => (await unsent(addresses)) === 0, { timeoutMs: 30_000 });
      const last = email();
      expect(
        (await api.auth.postRegister({ body: { email: last, password: 'correct horse battery' } })).response.status,
      ).toBe(201);
      await waitFor(() => emailsTo(last).length >= 1, { timeoutMs: 30_000 });
      for (const address of [...addresses, last]) expect(emailsTo(address)).toHaveLength(1);
    } finally {
      await authDb.destroy();
    }
  });
});
