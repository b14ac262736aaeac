import { Router } from 'express';
import request from 'supertest';
import { createHttpApp, createLogger } from '../src';

const app = createHttpApp({
  service: 'test',
  logger: createLogger('test', 'silent'),
  openapi: { openapi: '3.1.0', info: { title: 'Test <service>', version: '1' }, paths: {} },
  routes: Router(),
  readiness: async () => ({ database: 'up', broker: 'none' }),
});

test('when /docs is asked for, then the page loads its scripts as files under a CSP without inline scripts', async () => {
  const res = await request(app).get('/docs').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(res.text).toContain('<script src="docs/swagger-ui-bundle.js"></script>');
  expect(res.text).not.toMatch(/<script>/);
  // The document's title is shown without its markup.
  expect(res.text).toContain('<title>Test service API reference</title>');
});

test('when the docs assets are asked for, then they come from the service with their content types', async () => {
  const bundle = await request(app).get('/docs/swagger-ui-bundle.js').expect(200);
  expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
  expect(bundle.text.length).toBeGreaterThan(100_000);
  const css = await request(app).get('/docs/swagger-ui.css').expect(200);
  expect(css.headers['content-type']).toMatch(/^text\/css/);
  const init = await request(app).get('/docs/init.js').expect(200);
  expect(init.text).toContain("'v1/openapi.json'");
});

test('when another file under /docs is asked for, then it is 404 in the error envelope', async () => {
  const res = await request(app).get('/docs/../package.json').expect(404);
  expect(res.body.error.code).toBe('NOT_FOUND');
  await request(app).get('/docs/index.html').expect(404);
});

test('when /docs/ is asked for with a trailing slash, then it redirects to /docs, relatively, so its assets resolve under a path prefix too', async () => {
  for (const base of ['http://service', 'http://gateway/cms']) {
    const res = await request(app).get('/docs/?x=1').expect(301);
    const target = new URL(res.headers.location, `${base}/docs/?x=1`);
    expect(target.href).toBe(`${base}/docs?x=1`);
    // The page's assets, resolved against where the redirect lands.
    expect(new URL('docs/swagger-ui-bundle.js', target).pathname).toBe(
      `${new URL(base).pathname.replace(/\/$/, '')}/docs/swagger-ui-bundle.js`,
    );
  }
  await request(app).get('/docs/').expect(301).expect('location', '../docs');
});
