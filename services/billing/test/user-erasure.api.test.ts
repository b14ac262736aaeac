import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import request from 'supertest';
import { createTestService, describeUserErasure, type TestProject } from '@platform/testkit';
import { billingService } from '../src';
import { checkoutBody, newKey, newWebhookSecret } from './support/billing-test-service';
import { startStripeStub, type StripeStub } from './support/stripe-stub';

let stripe: StripeStub;
beforeAll(async () => {
  stripe = await startStripeStub();
});
afterAll(() => stripe.close());

const rand = () => randomBytes(6).toString('hex');
const now = () => Math.floor(Date.now() / 1000);
const webhookSecrets = new Map<string, string>();

describeUserErasure({
  service: 'billing',
  start: (bus) =>
    createTestService(billingService, { bus, env: { STRIPE_API_BASE: stripe.url, STRIPE_MAX_NETWORK_RETRIES: '0' } }),
  // The user's Stripe customer (from a checkout) and a subscription of it, as the webhook recorded it.
  async seed(svc, project: TestProject, user) {
    if (!webhookSecrets.has(project.projectId)) {
      const secretKey = newKey();
      const webhookSecret = newWebhookSecret();
      stripe.keys.add(secretKey);
      const config = await request(svc.app)
        .put('/v1/pay/config')
        .set(project.headers)
        .send({ environment: 'test', secretKey, webhookSecret });
      expect(config.status).toBe(200);
      webhookSecrets.set(project.projectId, webhookSecret);
    }
    const checkout = await request(svc.app)
      .post('/v1/pay/checkout/session')
      .set(project.headers)
      .set('authorization', `Bearer ${project.accessToken({ userId: user.userId, email: user.email! })}`)
      .send(checkoutBody);
    expect(checkout.status).toBe(201);
    stripe.put({ id: 'prod_pro', object: 'product', name: 'Pro plan' });
    const subscription = stripe.put({
      id: `sub_${rand()}`,
      object: 'subscription',
      customer: checkout.body.session.customer,
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
      .set(
        'stripe-signature',
        Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecrets.get(project.projectId)! }),
      )
      .send(payload);
    expect(hook.status).toBe(200);
  },
  personalColumns: {
    'customers.user_id': 'set to null',
    'subscriptions.customer_email': "set to null for the user's customers and address",
  },
  async held(svc, project, user) {
    const owner = { tenant_id: project.tenantId, project_id: project.projectId };
    const customers = await svc.deps
      .db('customers')
      .where({ ...owner, user_id: user.userId })
      .count<{ n: string }[]>('* as n');
    const subscriptions = await svc.deps
      .db('subscriptions')
      .where({ ...owner, customer_email: user.email!.toLowerCase() })
      .count<{ n: string }[]>('* as n');
    return Number(customers[0].n) + Number(subscriptions[0].n);
  },
});
