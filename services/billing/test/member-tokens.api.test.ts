import request from 'supertest';
import { createTestService, describeMemberTokens } from '@platform/testkit';
import { billingService } from '../src';
import { newKey, newWebhookSecret } from './support/billing-test-service';
import { startStripeStub, type StripeStub } from './support/stripe-stub';

let stripe: StripeStub;
beforeAll(async () => {
  stripe = await startStripeStub();
});
afterAll(() => stripe.close());

describeMemberTokens({
  service: 'billing',
  start: () =>
    createTestService(billingService, { env: { STRIPE_API_BASE: stripe.url, STRIPE_MAX_NETWORK_RETRIES: '0' } }),
  async prepare(svc, project) {
    const secretKey = newKey();
    stripe.keys.add(secretKey);
    const res = await request(svc.app)
      .put('/v1/pay/config')
      .set(project.headers)
      .send({ environment: 'test', secretKey, webhookSecret: newWebhookSecret() });
    expect(res.status).toBe(200);
  },
  write: (marker) => ({ method: 'post', path: '/v1/pay/customers', body: { email: `${marker}@example.com` } }),
  writeStatus: 201,
  writeRoute: '/v1/pay/customers',
  read: () => '/v1/pay/customers',
});
