/**
 * GET /docs of every service in headless Chromium: the page lists the document's operations,
 * the key headers are set through "Authorize", and one "Try it out" call succeeds.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import type { ServiceDefinition } from '@platform/runtime';
import {
  browserAvailable,
  createTestService,
  launchBrowser,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { authService } from '../services/auth/src';
import { billingService } from '../services/billing/src';
import { cmsService } from '../services/cms/src';
import { llmService } from '../services/llm/src';
import { mailerService } from '../services/mailer/src';
import { notificationsService } from '../services/notifications/src';

const browserTest = browserAvailable() || process.env.CI ? test : test.skip;
jest.setTimeout(120_000);

interface TryIt {
  method: string;
  path: string;
  query?: Record<string, string>;
}

/** One call per service that needs only the key headers (and at most a query parameter). */
const cases: [ServiceDefinition, (project: TestProject, url: string) => Promise<TryIt>][] = [
  [
    authService,
    async (project, url) => {
      const email = `docs-${project.projectId.slice(0, 8)}@example.com`;
      const registered = await fetch(`${url}/v1/register`, {
        method: 'POST',
        headers: { ...project.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery' }),
      });
      expect(registered.status).toBe(201);
      return { method: 'get', path: '/users/by-email', query: { email } };
    },
  ],
  [billingService, async () => ({ method: 'get', path: '/pay/config' })],
  [cmsService, async () => ({ method: 'get', path: '/content' })],
  [llmService, async () => ({ method: 'get', path: '/batch' })],
  [mailerService, async () => ({ method: 'get', path: '/templates' })],
  [notificationsService, async () => ({ method: 'get', path: '/notifications' })],
];

const operationCount = (document: { paths: Record<string, object> }) =>
  Object.values(document.paths).reduce(
    (sum, item) => sum + Object.keys(item).filter((key) => key !== 'parameters').length,
    0,
  );

async function authorize(page: Page, headers: Record<string, string>): Promise<void> {
  await page.click('.auth-wrapper .authorize');
  for (const [scheme, header] of [
    ['apiKey', 'x-api-key'],
    ['secretKey', 'x-secret-key'],
    ['tenantId', 'x-tenant-id'],
    ['projectId', 'x-project-id'],
  ]) {
    const form = page.locator('.modal-ux .auth-container', { hasText: scheme }).first();
    await form.locator('input').fill(headers[header]);
    await form.locator('button.authorize').click();
  }
  await page.click('.modal-ux button.close-modal');
}

async function tryIt(page: Page, call: TryIt): Promise<string> {
  const operation = page.locator(`.opblock-${call.method}`, {
    has: page.locator(`.opblock-summary-path[data-path="${call.path}"]`),
  });
  await operation.locator('.opblock-summary').first().click();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    await operation.locator(`tr[data-param-name="${name}"] input`).fill(value);
  }
  await operation.locator('button.execute').click();
  return (await operation.locator('.live-responses-table tbody .response-col_status').first().textContent())!.trim();
}

describe('API docs pages', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    if (browserAvailable() || process.env.CI) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [definition, prepare] of cases) {
    browserTest(
      `when the ${definition.name} docs page is opened, then it lists every operation and "try it" succeeds with the keys`,
      async () => {
        const service: TestService = await createTestService(definition);
        const server: Server = createServer(service.app);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        try {
          const project = await service.createProject();
          const call = await prepare(project, url);
          const page = await browser!.context.newPage();
          const blocked: string[] = [];
          page.on('console', (message) => {
            if (/Content.Security.Policy/i.test(message.text())) blocked.push(message.text());
          });
          await page.goto(`${url}/docs`);
          await page.waitForSelector('.opblock');
          const document = (await (await fetch(`${url}/v1/openapi.json`)).json()) as { paths: Record<string, object> };
          expect(await page.locator('.opblock').count()).toBe(operationCount(document));
          await authorize(page, project.headers);
          expect(await tryIt(page, call)).toBe('200');
          expect(blocked).toEqual([]);
          await page.close();
        } finally {
          await new Promise((resolve) => server.close(resolve));
          await service.close();
        }
      },
    );
  }
});
