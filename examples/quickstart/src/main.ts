/**
 * The quickstart app: one user's way through the six services, with @platform/client only.
 * Run `pnpm start` in one terminal and `pnpm example` in another.
 */
import { createClient, type ApiError, type PlatformClient } from '@platform/client';
import { loadConfig, type ExampleConfig } from './config';

type Step = (app: App) => Promise<string>;

interface App {
  server: PlatformClient;
  user: PlatformClient;
  config: ExampleConfig;
  email: string;
  userId?: string;
}

/** The data of a result, or an Error carrying the API's code and the request id to quote. */
function ok<T>(result: { data?: T; error?: ApiError; requestId: string | null }): T {
  if (result.data !== undefined) return result.data;
  const error = result.error?.error;
  throw new Error(`${error?.code ?? 'NO_BODY'}: ${error?.message ?? ''} (request ${result.requestId})`);
}

const steps: [string, Step | undefined, (config: ExampleConfig) => string | undefined][] = [
  [
    'sign up, log in and read /me',
    async (app) => {
      const password = 'correct horse battery';
      ok(await app.server.auth.postRegister({ body: { email: app.email, password } }));
      const login = ok(await app.server.auth.postLogin({ body: { email: app.email, password } }));
      // A user with a second factor gets a challenge to answer (POST /v1/mfa/verify) instead of tokens.
      if (!('accessToken' in login)) return 'a second factor is required: answer the challenge with /v1/mfa/verify';
      // From here on the user's calls carry the session; the client refreshes it when it expires.
      await app.user.setSession({ accessToken: login.accessToken, refreshToken: login.refreshToken });
      const { user } = ok(await app.user.auth.getMe());
      app.userId = user.id;
      return `signed in as ${user.email}`;
    },
    () => undefined,
  ],
  [
    'create and publish content',
    async (app) => {
      const created = ok(
        await app.server.cms.postContent({
          body: { type: 'blog', title: 'Hello from the quickstart', content: 'First post' },
        }),
      );
      const published = ok(
        await app.server.cms.putContentByContentId({
          params: { path: { content_id: created.id } },
          body: { status: 'published' },
        }),
      );
      return `"${published.title}" is ${published.status} at /${published.slug}`;
    },
    () => undefined,
  ],
  [
    'send an e-mail from a template',
    async (app) => {
      ok(
        await app.server.mailer.postProviders({
          body: {
            name: 'quickstart',
            type: 'sendgrid',
            isDefault: true,
            config: { apiKey: app.config.sendgridApiKey!, fromEmail: 'noreply@example.com' },
          },
        }),
      );
      const template = ok(
        await app.server.mailer.postTemplates({
          body: {
            name: `Welcome ${Date.now()}`,
            subject: 'Welcome, {{name}}',
            html: '<p>Hello {{name}}, thanks for joining.</p>',
            text: 'Hello {{name}}, thanks for joining.',
          },
        }),
      );
      const sent = ok(
        await app.server.mailer.postEmailsSend({
          body: { to: app.email, templateId: template.id, templateData: { name: 'Ada' } },
        }),
      );
      return `e-mail ${sent.messageId} ${sent.status}`;
    },
    (config) => (config.sendgridApiKey ? undefined : 'set SENDGRID_API_KEY'),
  ],
  [
    'create and read notifications',
    async (app) => {
      const userId = app.userId!;
      ok(
        await app.server.notifications.postNotifications({
          body: { userId, title: 'Welcome', message: 'Glad you are here' },
        }),
      );
      const list = ok(await app.server.notifications.getNotifications({ params: { query: { userId, read: false } } }));
      const first = list.notifications[0];
      ok(
        await app.server.notifications.patchNotificationsByIdRead({
          params: { path: { id: first.id }, query: { userId } },
        }),
      );
      return `${list.notifications.length} unread, "${first.title}" now read`;
    },
    () => undefined,
  ],
  [
    'one LLM completion',
    async (app) => {
      ok(await app.server.llm.postProviders({ body: { providerType: 'openai', apiKey: app.config.openaiApiKey! } }));
      const completion = ok(
        await app.server.llm.postCompletions({
          body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] },
        }),
      );
      return `${completion.model}: ${completion.completion}`;
    },
    (config) => (config.openaiApiKey ? undefined : 'set OPENAI_API_KEY'),
  ],
  [
    'a checkout session',
    async (app) => {
      ok(
        await app.server.billing.putStripeConfig({
          body: { environment: 'test', secretKey: app.config.stripeSecretKey! },
        }),
      );
      // With the user's session: the signed-in user becomes the Stripe customer.
      const checkout = ok(
        await app.user.billing.createCheckoutSession({
          body: {
            mode: 'payment',
            line_items: [{ price: 'price_quickstart', quantity: 1 }],
            success_url: 'https://app.example.com/ok',
            cancel_url: 'https://app.example.com/cancel',
          },
        }),
      );
      return `checkout session ${checkout.session.id} at ${checkout.session.url}`;
    },
    (config) => (config.stripeSecretKey ? undefined : 'set STRIPE_SECRET_KEY'),
  ],
];

async function main(): Promise<number> {
  const config = loadConfig();
  const server = createClient({ urls: config.urls, keys: config.keys, retry: { attempts: 2 } });
  // The user's client sends the bearer; keys too, since billing wants both (RESOLUTIONS 4).
  const user = createClient({ urls: config.urls, keys: config.keys });
  const app: App = { server, user, config, email: `quickstart-${Date.now()}@example.com` };
  let failed = 0;
  for (const [name, step, skip] of steps) {
    const reason = skip(config);
    if (reason) {
      console.log(`- ${name}: skipped (${reason})`);
      continue;
    }
    try {
      console.log(`✓ ${name}: ${await step!(app)}`);
    } catch (error) {
      failed++;
      console.log(`✗ ${name}: ${(error as Error).message}`);
    }
  }
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
