/**
 * The Billing page in Chromium against `pnpm start` on embedded defaults, with Billing pointed at
 * the local Stripe stand-in the Billing service's own tests use: Stripe keys per environment
 * with the account status, the customers and the subscriptions of the project.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { browserAvailable } from '@platform/testkit';
import { startStripeStub, type StripeStub } from '../../services/billing/test/support/stripe-stub';
import { browserJourney } from './browser-journey';
import { clientOf, createProject, type CreatedProject } from './project-moves';

const run = browserAvailable() ? describe : describe.skip;
const rand = () => randomBytes(6).toString('hex');

/** Stripe's Stripe-Signature header: t=<unix seconds>,v1=<HMAC-SHA256 of "t.payload"> under the webhook secret. */
function stripeSignature(payload: string, secret: string): string {
  const time = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`${time}.${payload}`).digest('hex');
  return `t=${time},v1=${signature}`;
}

run('the Billing page of the web console', () => {
  let stripe: StripeStub;
  beforeAll(async () => {
    stripe = await startStripeStub();
  });
  afterAll(async () => {
    await stripe?.close();
  });
  const ui = browserJourney('billing', () => ({ STRIPE_API_BASE: stripe.url }));
  const owner = `billing-owner-${Date.now()}@example.com`;
  const secretKey = `sk_test_${rand()}`;
  const webhookSecret = `whsec_${rand()}`;
  let project: CreatedProject;

  beforeAll(async () => {
    stripe.keys.add(secretKey);
    await ui.page.setViewportSize({ width: 1280, height: 800 });
    await ui.signUpVerified(owner);
    project = await createProject(ui, 'Shopfront', 'tills');
  }, 180_000);

  it('sets the test keys, shows the account status per environment, the customers and the subscriptions', async () => {
    const { page } = ui;
    await ui.step('keys', async () => {
      await page.getByRole('link', { name: 'Billing' }).click();
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
      await ui.expectAccessible();
      await page.getByLabel('Stripe secret key').fill(secretKey);
      await page.getByLabel('Webhook signing secret (optional)').fill(webhookSecret);
      await page.getByRole('button', { name: 'Save test keys' }).click();
      await page.getByText('Saved. The keys are never shown again.').waitFor();
      // The account as the stand-in describes it, read with the saved key; the key is not on the page.
      await page.getByText('acct_stub').waitFor();
      expect(await page.content()).not.toContain(secretKey);
      await ui.expectAccessible();
    });
    await ui.step('live-environment', async () => {
      await page.getByLabel('Stripe environment').selectOption('live');
      await page.getByRole('heading', { name: 'Stripe keys (live)' }).waitFor();
      // No live keys: the account status says so instead of showing the test account.
      await page
        .getByText(/not configured/i)
        .first()
        .waitFor();
      expect(await page.getByText('acct_stub').count()).toBe(0);
      await ui.expectAccessible();
      await page.getByLabel('Stripe environment').selectOption('test');
      await page.getByText('acct_stub').waitFor();
    });
    await ui.step('customers-and-subscriptions', async () => {
      const client = clientOf(ui, project);
      const email = `buyer-${rand()}@example.com`;
      const customer = await client.billing.createCustomer({
        params: { query: { environment: 'test' } },
        body: { email, name: 'Ada Buyer' },
      });
      expect(customer.response.status).toBe(201);
      const customerId = (customer.data as { id: string }).id;
      // A subscription made in Stripe, told to Billing by a signed event as Stripe would.
      const subscription = stripe.put({
        id: `sub_${rand()}`,
        object: 'subscription',
        customer: customerId,
        status: 'active',
        cancel_at_period_end: false,
        canceled_at: null,
        created: Math.floor(Date.now() / 1000),
        metadata: { tenantId: project.orgId, projectId: project.projectId },
        items: {
          object: 'list',
          data: [
            {
              id: `si_${rand()}`,
              price: { id: 'price_pro', product: 'prod_pro' },
              current_period_end: Math.floor(Date.now() / 1000) + 30 * 86400,
            },
          ],
        },
      });
      const payload = JSON.stringify({
        id: `evt_${rand()}`,
        object: 'event',
        type: 'customer.subscription.created',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object: subscription },
      });
      const delivered = await fetch(
        `${ui.platform.serviceUrl('billing')}/pay/webhooks/${project.orgId}/${project.projectId}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, webhookSecret) },
          body: payload,
        },
      );
      expect(delivered.status).toBe(200);

      await page.reload();
      await page.getByRole('cell', { name: email }).first().waitFor();
      await page.getByRole('cell', { name: 'Ada Buyer' }).waitFor();
      const subscriptions = page.getByRole('region', { name: 'Subscriptions' });
      await subscriptions.getByRole('row').filter({ hasText: email }).getByRole('cell', { name: 'active' }).waitFor();
      await ui.expectAccessible();
    });
  }, 120_000);
});
