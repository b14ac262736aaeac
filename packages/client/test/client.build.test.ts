/**
 * The build (`pnpm --filter @platform/client build`): ESM and CommonJS load in Node, and the
 * browser bundle runs in Chromium and makes a call.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { browserAvailable, launchBrowser } from '@platform/testkit';

const run = promisify(execFile);
const DIR = path.resolve(__dirname, '..');
const browserTest = browserAvailable() || process.env.CI ? test : test.skip;
jest.setTimeout(120_000);

beforeAll(async () => {
  await run(process.execPath, ['build.mjs'], { cwd: DIR });
});

test('when the CommonJS build is required, then it exports createClient with one method per operation', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build is what is tested
  const built = require(path.join(DIR, 'dist/index.cjs')) as typeof import('../src');
  const client = built.createClient({ urls: { auth: 'http://127.0.0.1:1/v1' } });
  expect(typeof client.auth.postLogin).toBe('function');
  expect(typeof client.notifications.getNotifications).toBe('function');
});

test('when the ESM build is imported, then it exports createClient', async () => {
  const script = `import('${path.join(DIR, 'dist/index.mjs')}').then((m) => console.log(typeof m.createClient().cms.getContent))`;
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: DIR });
  expect(stdout.trim()).toBe('function');
});

browserTest('when the browser bundle runs in Chromium, then a typed call reaches the service', async () => {
  const bundle = readFileSync(path.join(DIR, 'dist/browser.mjs'));
  const server = createServer((req, res) => {
    if (req.url === '/browser.mjs') {
      res.setHeader('content-type', 'text/javascript');
      res.end(bundle);
    } else if (req.url === '/v1/.well-known/jwks.json') {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-request-id', 'from-browser');
      res.end(JSON.stringify({ keys: [] }));
    } else {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>client</title>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(origin);
    // A string, so that jest's transform leaves the browser's own dynamic import alone.
    const answer = await page.evaluate(`(async () => {
      const { createClient } = await import('${origin}/browser.mjs');
      const result = await createClient({ urls: { auth: '${origin}/v1' } }).auth.getWellKnownJwksJson();
      return { data: result.data, requestId: result.requestId };
    })()`);
    expect(answer).toEqual({ data: { keys: [] }, requestId: 'from-browser' });
  } finally {
    await browser.close();
    server.close();
  }
});
