import { createServer } from 'node:http';
import { browserAvailable, launchBrowser } from './browser';

const browserTest = browserAvailable() || process.env.CI ? test : test.skip;

browserTest('when a page is served on localhost, then headless Chromium renders it', async () => {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<h1 id="greeting">hello</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    expect(await page.textContent('#greeting')).toBe('hello');
  } finally {
    await browser.close();
    server.close();
  }
});
