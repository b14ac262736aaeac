/**
 * The quickstart app, run as `pnpm example` runs it, against the six services as processes
 * (real Postgres and RabbitMQ) with local stand-ins for SendGrid, OpenAI and Stripe.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@platform/testkit';
import { startPlatform, type E2EPlatform } from '../../../e2e/harness/platform';
import { startOpenAiStandIn, startSendgridStandIn } from '../../../e2e/harness/stand-ins';
import { startStripeStub, type StripeStub } from '../../../services/billing/test/support/stripe-stub';

const describeE2E = process.env.TEST_DATABASE_URL && process.env.TEST_AMQP_URL ? describe : describe.skip;
jest.setTimeout(180_000);

describeE2E('quickstart example', () => {
  let platform: E2EPlatform;
  let sendgrid: Awaited<ReturnType<typeof startSendgridStandIn>>;
  let openai: Awaited<ReturnType<typeof startOpenAiStandIn>>;
  let stripe: StripeStub;

  beforeAll(async () => {
    sendgrid = await startSendgridStandIn();
    openai = await startOpenAiStandIn();
    stripe = await startStripeStub();
    platform = await startPlatform({
      vendorEnv: { SENDGRID_API_BASE: sendgrid.url, OPENAI_BASE_URL: openai.url, STRIPE_API_BASE: stripe.url },
    });
    // Six cold starts on a loaded machine can take minutes.
  }, 400_000);

  afterAll(async () => {
    await platform?.stop();
    await sendgrid?.close();
    await openai?.close();
    await stripe?.close();
  });

  /** Runs the example as `pnpm example` does, with this platform's project and services in its environment. */
  async function runExample(env: Record<string, string | undefined>): Promise<string> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, '../src/main.ts')],
      {
        env: {
          PATH: process.env.PATH,
          PLATFORM_API_KEY: platform.project.apiKey,
          PLATFORM_SECRET_KEY: platform.project.secretKey,
          PLATFORM_TENANT_ID: platform.project.tenantId,
          PLATFORM_PROJECT_ID: platform.project.projectId,
          ...Object.fromEntries(
            Object.entries(platform.urls).map(([service, url]) => [`${service.toUpperCase()}_URL`, url]),
          ),
          ...env,
        },
      },
    );
    return stdout;
  }

  it('when the example runs against the services with vendor keys, then every step succeeds', async () => {
    const stripeKey = `sk_test_${randomBytes(12).toString('hex')}`;
    stripe.keys.add(stripeKey);
    const stdout = await runExample({
      SENDGRID_API_KEY: 'SG.quickstart',
      OPENAI_API_KEY: 'sk-quickstart',
      STRIPE_SECRET_KEY: stripeKey,
    });
    expect(stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^✓ sign up, log in and read \/me: signed in as quickstart-\d+@example\.com$/),
      expect.stringMatching(/^✓ create and publish content: "Hello from the quickstart" is published at \//),
      expect.stringMatching(/^✓ send an e-mail from a template: /),
      '✓ create and read notifications: 1 unread, "Welcome" now read',
      '✓ one LLM completion: gpt-4o-mini: echo: Say hello',
      expect.stringMatching(/^✓ a checkout session: checkout session cs_/),
    ]);
    const [welcome] = await waitFor(() => sendgrid.emails.filter((e) => e.subject === 'Welcome, Ada'));
    expect(welcome.text).toBe('Hello Ada, thanks for joining.');
  });

  it('when no vendor keys are given, then the vendor steps are skipped and the rest succeed', async () => {
    const stdout = await runExample({});
    expect(stdout).toContain('- send an e-mail from a template: skipped (set SENDGRID_API_KEY)');
    expect(stdout).toContain('✓ create and read notifications');
    expect(stdout).not.toContain('✗');
  });
});
