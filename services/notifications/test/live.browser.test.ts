import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StopFunction } from '@platform/runtime';
import { browserAvailable, createTestService, launchBrowser, type TestService } from '@platform/testkit';
import { notificationsService } from '../src';
import { api as client } from './support/notifications-test-service';

const browserTest = browserAvailable() || process.env.CI ? describe : describe.skip;

/** The page an app would serve: an EventSource on the end user's stream, recording what it sees. */
const PAGE = `<!doctype html><script>
  window.received = [];
  window.counts = [];
  window.failed = false;
  window.openInbox = (url) => {
    const source = new EventSource(url);
    source.addEventListener('notification', (e) => window.received.push({ id: e.lastEventId, data: JSON.parse(e.data) }));
    source.addEventListener('unread_count', (e) => window.counts.push(JSON.parse(e.data).count));
    source.onerror = () => { if (source.readyState === EventSource.CLOSED) window.failed = true; };
  };
</script>`;

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

browserTest('EventSource in headless Chromium', () => {
  let svc: TestService;
  let stopBackground: StopFunction;
  const servers: Server[] = [];
  let streamUrl: string;
  let allowedPage: string;
  let otherPage: string;

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
    stopBackground = await svc.startJobs();
    const api = createServer(svc.app);
    const page = createServer((_req, res) => res.setHeader('content-type', 'text/html').end(PAGE));
    const other = createServer((_req, res) => res.setHeader('content-type', 'text/html').end(PAGE));
    servers.push(api, page, other);
    streamUrl = `http://127.0.0.1:${await listen(api, '127.0.0.1')}/v1/me/notifications/stream`;
    allowedPage = `http://localhost:${await listen(page, '127.0.0.1')}`;
    otherPage = `http://localhost:${await listen(other, '127.0.0.1')}`;
  });

  afterAll(async () => {
    await stopBackground();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await svc.close();
  });

  it('when a page on an allowed origin opens the stream with ?access_token=, then new notifications arrive in it; another origin is refused', async () => {
    const project = await svc.createProject({ allowedOrigins: [allowedPage] });
    const token = project.accessToken({ userId: 'alice', email: 'alice@x.test' });
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${allowedPage}/`);
      // Expressions run in the page (this project's TypeScript has no DOM types).
      const inbox = `${streamUrl}?access_token=${token}`;
      await page.evaluate(`window.openInbox(${JSON.stringify(inbox)})`);
      await page.waitForFunction('window.counts.length === 1');
      const created = await client(svc.app, project.headers).post('/notifications', {
        body: { userId: 'alice', title: 'In the browser', message: 'x' },
      });
      expect(created.status).toBe(201);
      await page.waitForFunction('window.received.length === 1');
      expect(await page.evaluate('window.received')).toEqual([
        { id: expect.stringMatching(/^\d+$/), data: created.body },
      ]);
      await page.waitForFunction("window.counts.join() === '0,1'");

      const refused = await browser.context.newPage();
      await refused.goto(`${otherPage}/`);
      await refused.evaluate(`window.openInbox(${JSON.stringify(inbox)})`);
      await refused.waitForFunction('window.failed');
      expect(await refused.evaluate('window.counts')).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
