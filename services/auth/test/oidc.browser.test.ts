import { createHash, randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserAvailable, launchBrowser, type TestProject, type TestService } from '@platform/testkit';
import type { AuthShared } from '../src';
import { apiOf, startAuth, type Api } from './support/auth-test-service';
import { startTestIssuer, type TestIssuer } from './support/oidc-issuer';

const servers: Server[] = [];

/** A server on a free local port, its handler given later (the service needs its own URL first). */
async function listen(): Promise<{ url: string; handle(listener: RequestListener): void }> {
  let listener: RequestListener = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    handle: (next) => (listener = next),
  };
}

const maybe = browserAvailable() ? describe : describe.skip;

maybe('sign-in with a provider in Chromium', () => {
  let svc: TestService<AuthShared>;
  let api: Api;
  let issuer: TestIssuer;
  let project: TestProject;
  let appDone: string;
  let serviceUrl = '';

  beforeAll(async () => {
    const service = await listen();
    const app = await listen();
    appDone = `${app.url}/done`;
    app.handle((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Back in the app</p>'));
    issuer = await startTestIssuer({
      clients: [{ client_id: 'web', client_secret: 'web-secret', redirect_uris: [`${service.url}/v1/callback`] }],
      accounts: { grace: { email: 'grace@idp.test', email_verified: true } },
    });
    svc = await startAuth({ AUTH_PUBLIC_URL: service.url, AUTH_OIDC_ALLOWED_HOSTS: '127.0.0.1' });
    service.handle(svc.app);
    api = apiOf(svc.app);
    project = await svc.createProject({ allowedRedirectUrls: [appDone] });
    await api.post('/oidc/providers', {
      headers: project.headers,
      body: { name: 'idp', issuer: issuer.issuer, clientId: 'web', clientSecret: 'web-secret' },
    });
    serviceUrl = service.url;
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await svc?.close();
    await issuer?.close();
  });

  it('when a person signs in through the provider pages, then the app gets a code that its verifier exchanges for a session', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const start = `${serviceUrl}/v1/authorize?${new URLSearchParams({
        api_key: project.apiKey,
        provider: 'idp',
        redirect_to: appDone,
        code_challenge: challenge,
      }).toString()}`;
      await page.goto(start);
      await page.fill('input[name=login]', 'grace');
      await page.fill('input[name=password]', 'any password');
      await page.click('button[type=submit]');
      await page.waitForSelector('input[name=prompt][value=consent]', { state: 'attached' });
      await page.click('button[type=submit]');
      await page.waitForURL((url) => url.toString().startsWith(appDone));
      const landed = new URL(page.url());
      expect(landed.searchParams.get('error')).toBeNull();
      const code = landed.searchParams.get('code')!;
      // The flow cookie was cleared once the callback had it.
      const cookies = await browser.context.cookies(serviceUrl);
      expect(cookies.find((c) => c.name === 'platform_oidc_flow')).toBeUndefined();

      const res = await api.post('/token', { headers: project.headers, body: { code, codeVerifier: verifier } });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ email: 'grace@idp.test', emailVerified: true });
    } finally {
      await browser.close();
    }
  });
});
