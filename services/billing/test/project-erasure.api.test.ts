import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import request from 'supertest';
import { createTestService, describeProjectErasure } from '@platform/testkit';
import { billingService } from '../src';
import { ERASURE_TABLES } from '../src/project-erasure';
import { newKey, newWebhookSecret } from './support/billing-test-service';
import { startStripeStub, type StripeStub } from './support/stripe-stub';

let stripe: StripeStub;
beforeAll(async () => {
  stripe = await startStripeStub();
});
afterAll(() => stripe.close());

const rand = () => randomBytes(6).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

describeProjectErasure({
  service: 'billing',
  definition: billingService,
  tables: ERASURE_TABLES,
  start: (bus) =>
    createTestService(billingService, { bus, env: { STRIPE_API_BASE: stripe.url, STRIPE_MAX_NETWORK_RETRIES: '0' } }),
  async seed(svc, project) {
    const secretKey = newKey();
    const webhookSecret = newWebhookSecret();
    stripe.keys.add(secretKey);
    const config = await request(svc.app)
      .put('/v1/pay/config')
      .set(project.headers)
      .send({ environment: 'test', secretKey, webhookSecret });
    expect(config.status).toBe(200);
    const customer = await request(svc.app)
      .post('/v1/pay/customers')
      .set(project.headers)
      .send({ email: `erased-${rand()}@example.com` });
    expect(customer.status).toBe(201);
    stripe.put({ id: 'prod_pro', object: 'product', name: 'Pro plan' });
    const subscription = stripe.put({
      id: `sub_${rand()}`,
      object: 'subscription',
      customer: customer.body.id,
      status: 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      created: now() - 60,
      metadata: { tenantId: project.tenantId, projectId: project.projectId },
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
    const hook = await request(svc.app)
      .post(`/v1/pay/webhooks/${project.tenantId}/${project.projectId}`)
      .set('content-type', 'application/json')
      .set('stripe-signature', Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }))
      .send(payload);
    expect(hook.status).toBe(200);
  },
  seeded: ['stripe_configs', 'customers', 'subscriptions', 'stripe_events'],
});
