import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  apiClient,
  createTestService,
  type ApiClient,
  type CoverageOptions,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { billingService, type BillingShared } from '../../src/index';
import { openapi } from '../../src/openapi';
import { startStripeStub, type StripeStub } from './stripe-stub';

export interface BillingTest {
  svc: TestService<BillingShared>;
  stripe: StripeStub;
  /**
   * The shared test client: every response, and every request the service accepts, is checked
   * against the service's OpenAPI document, and what it exercised counts towards `coverage`.
   */
  api: ApiClient;
  close(): Promise<void>;
}

/**
 * The service around fresh databases, its Stripe calls going to a local stand-in; `env` adds
 * Billing settings (BILLING_CUSTOMER_CREATE_LIMIT, STRIPE_TIMEOUT_MS, ...).
 */
export async function startBilling(env: Record<string, string> = {}): Promise<BillingTest> {
  const stripe = await startStripeStub();
  const svc = await createTestService(billingService, {
    env: { STRIPE_API_BASE: stripe.url, STRIPE_MAX_NETWORK_RETRIES: '0', ...env },
  });
  return {
    svc,
    stripe,
    api: apiClient(svc.app, { openapi, coverage }),
    async close() {
      await svc.close();
      await stripe.close();
    },
  };
}

/** Billing takes part in the run-wide check that every documented operation and status is exercised. */
export const coverage: CoverageOptions = {
  service: 'billing',
  testDir: path.join(__dirname, '..'),
  exempt: [
    {
      pattern: '^[A-Z]+ /stripe/',
      reason: 'aliases served by the same router as /pay; provider.api.test.ts compares them',
    },
    {
      pattern: ' (429|503)$',
      reason: 'the shared per-project limit and database outage: packages/tenancy and e2e tests',
    },
    { pattern: ' (500|502)$', reason: "Stripe's failures, mapped by callStripe: stripe-errors.test.ts" },
    { pattern: '^POST /pay/checkout/session 404$', reason: "Stripe's unknown object, mapped by callStripe" },
  ],
};

export const newKey = (mode: 'test' | 'live' = 'test') => `sk_${mode}_${randomBytes(12).toString('hex')}`;
export const newWebhookSecret = () => `whsec_${randomBytes(16).toString('hex')}`;

/** A project with Stripe keys stored for the environment (and the stand-in accepting them). */
export async function configuredProject(t: BillingTest, environment: 'test' | 'live' = 'test') {
  const project = await t.svc.createProject();
  const secretKey = newKey(environment);
  const webhookSecret = newWebhookSecret();
  t.stripe.keys.add(secretKey);
  const res = await t.api.call('put', '/pay/config', {
    headers: project.headers,
    body: { environment, secretKey, webhookSecret },
  });
  if (res.status !== 200) throw new Error(`configuring Stripe failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { project, secretKey, webhookSecret };
}

/** Key headers plus a bearer token of a fresh user of that project. */
export function signedIn(project: TestProject, email = `user-${randomBytes(4).toString('hex')}@example.com`) {
  const userId = randomUUID();
  return {
    userId,
    email,
    headers: { ...project.headers, authorization: `Bearer ${project.accessToken({ userId, email })}` },
  };
}

/** A valid checkout body. */
export const checkoutBody = {
  line_items: [{ price: 'price_basic', quantity: 1 }],
  mode: 'subscription',
  success_url: 'https://app.example.com/success',
  cancel_url: 'https://app.example.com/cancel',
};
