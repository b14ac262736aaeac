import { Router } from 'express';
import request from 'supertest';
import { logLines, testJwtKeys } from '@platform/testkit';
import { createHttpApp, createLogger, scrapedMetric } from '../src';
import { errors, Joi, pageSchema, parse, requireBearer, signAccessToken } from '@platform/tenancy';

const keys = testJwtKeys();
// The service's real logger (JSON, redaction), writing into this list instead of stdout.
const { destination, lines: logged } = logLines();
const logger = createLogger('test', 'info', destination);

function buildApp(database: 'up' | 'down' = 'up') {
  const routes = Router();
  routes.post('/echo', (req, res) => {
    const body = parse(Joi.object({ name: Joi.string().required(), age: Joi.number().integer().min(0) }), req.body);
    res.json(body);
  });
  routes.get('/page', (req, res) => {
    res.json(parse(Joi.object(pageSchema(20)), req.query));
  });
  routes.get('/boom', () => {
    throw new Error('select * from secrets -- internal detail');
  });
  routes.get('/missing', () => {
    throw errors.notFound('Widget');
  });
  routes.get('/me', requireBearer(keys.publicKey), (req, res) => {
    res.json(req.auth);
  });
  return createHttpApp({
    service: 'test',
    logger,
    openapi: { openapi: '3.1.0' },
    routes,
    readiness: async () => ({ database, broker: 'down' }),
    bodyLimit: '1kb',
  });
}

describe('common HTTP stack', () => {
  const app = buildApp();

  it('when the body is not valid JSON, then 400 VALIDATION_ERROR in the envelope', async () => {
    const res = await request(app).post('/v1/echo').set('content-type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' },
    });
  });

  it('when the body is larger than the limit, then 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await request(app)
      .post('/v1/echo')
      .send({ name: 'x'.repeat(2000) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it.each([
    ['a value', '{"name": "a\\ud800"}', 'name'],
    ['a nested key', '{"name": "ok", "meta": {"tags": [{"k\\udfff": 1}]}}', 'meta.tags.0.k\udfff'],
    ['a reversed pair', '{"name": "\\udc00\\ud800"}', 'name'],
  ])('when %s holds a lone UTF-16 surrogate, then 400 VALIDATION_ERROR names where', async (_case, json, path) => {
    const res = await request(app).post('/v1/echo').set('content-type', 'application/json').send(json);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path }] });
  });

  it('when a string holds a proper surrogate pair, then it passes', async () => {
    const res = await request(app).post('/v1/echo').send({ name: 'emoji \ud83d\ude00' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('emoji \u{1f600}');
  });

  it('when a body nests 100,000 levels deep, then it is answered without overflowing the stack', async () => {
    const deep = `{"name": "x", "d": ${'['.repeat(100_000)}"\\ud800"${']'.repeat(100_000)}}`;
    const res = await request(app).post('/v1/echo').set('content-type', 'application/json').send(deep);
    expect(res.status).toBeLessThan(500);
  });

  it('when fields are invalid, then 400 lists each problem and unknown fields are dropped', async () => {
    const bad = await request(app).post('/v1/echo').send({ age: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'name' }), expect.objectContaining({ path: 'age' })]),
    );
    const good = await request(app).post('/v1/echo').send({ name: 'Ada', admin: true });
    expect(good.body).toEqual({ name: 'Ada' });
  });

  it.each(['0', '101', '-1', 'abc', '2.5'])('when limit is %s, then 400', async (limit) => {
    const res = await request(app).get('/v1/page').query({ limit });
    expect(res.status).toBe(400);
  });

  it('when no limit is given, then the endpoint default applies', async () => {
    const res = await request(app).get('/v1/page');
    expect(res.body).toEqual({ limit: 20, offset: 0 });
  });

  it('when a handler throws unexpectedly, then 500 carries the request id and no internals', async () => {
    const res = await request(app).get('/v1/boom').set('x-request-id', 'req-123');
    expect(res.status).toBe(500);
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect(res.body.error.requestId).toBe('req-123');
    expect(JSON.stringify(res.body)).not.toMatch(/select|secrets|stack/i);
    // The cause goes to the log, with the request id, for the operator.
    const line = JSON.parse(logged.find((l) => l.includes('req-123'))!);
    expect(line).toMatchObject({ level: 'error', requestId: 'req-123', code: 'INTERNAL_ERROR', path: '/v1/boom' });
    expect(JSON.stringify(line.cause)).toContain('select * from secrets');
  });

  it('when the route does not exist, then 404 NOT_FOUND in the envelope', async () => {
    const res = await request(app).get('/v1/nope');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('when no request id is sent, then one is generated and returned', async () => {
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when only the broker is down, then /readyz is still 200 and reports it', async () => {
    const res = await request(app).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', broker: 'down' });
  });

  it('when the database is down, then /readyz is 503', async () => {
    const res = await request(buildApp('down')).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.database).toBe('down');
  });

  it('when /metrics is scraped, then request counts and latency buckets per route and status are there', async () => {
    const fresh = buildApp();
    await request(fresh).get('/v1/missing');
    await request(fresh).get('/v1/missing');
    await request(fresh).get('/v1/page?limit=5');
    const text = (await request(fresh).get('/metrics')).text;
    const sample = (name: string, route: string, status: string, extra = '') =>
      Number(
        new RegExp(
          `^${name}\\{method="GET",route="${route}",status="${status}"${extra},service="test"\\} (\\S+)$`,
          'm',
        ).exec(text)?.[1],
      );
    expect(sample('http_requests_total', '/v1/missing', '404')).toBe(2);
    expect(sample('http_requests_total', '/v1/page', '200')).toBe(1);
    expect(sample('http_request_duration_seconds_count', '/v1/missing', '404')).toBe(2);
    expect(sample('http_request_duration_seconds_bucket', '/v1/missing', '404', ',le="\\+Inf"')).toBe(2);
    expect(sample('http_request_duration_seconds_sum', '/v1/missing', '404')).toBeGreaterThan(0);
    // Buckets are cumulative: never fewer requests under a larger bound.
    const buckets = [
      ...text.matchAll(/^http_request_duration_seconds_bucket\{[^}]*route="\/v1\/missing"[^}]*\} (\d+)$/gm),
    ];
    const counts = buckets.map((m) => Number(m[1]));
    expect(counts.length).toBe(13);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
  });

  it('when a service passes metrics of its own, then /metrics reads their current values at each scrape', async () => {
    let queued = 3;
    const withOwn = createHttpApp({
      service: 'test',
      logger,
      openapi: {},
      routes: Router(),
      readiness: async () => ({ database: 'up', broker: 'none' }),
      metrics: [
        scrapedMetric('widgets_queued', 'Widgets waiting', 'gauge', () => [
          { labels: { kind: 'blue' }, value: queued },
        ]),
      ],
    });
    const scrape = async () => (await request(withOwn).get('/metrics')).text;
    expect(await scrape()).toMatch(/^# TYPE widgets_queued gauge$/m);
    expect(await scrape()).toMatch(/^widgets_queued\{kind="blue",service="test"\} 3$/m);
    queued = 0;
    expect(await scrape()).toMatch(/^widgets_queued\{kind="blue",service="test"\} 0$/m);
  });

  it('when any response goes out, then it carries the security headers of a JSON API', async () => {
    const res = await request(app).get('/v1/page');
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('bearer tokens', () => {
  const app = buildApp();
  const claims = { userId: 'u1', tenantId: 't1', projectId: 'p1', email: 'a@b.c', tokenVersion: 0 };

  it('when the token is signed by the auth key, then the claims reach the handler', async () => {
    const res = await request(app)
      .get('/v1/me')
      .set('authorization', `Bearer ${signAccessToken(claims, keys.privateKey)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...claims, expiresAt: expect.any(Number) });
  });

  it('when the token is expired, then 401 INVALID_SESSION', async () => {
    const res = await request(app)
      .get('/v1/me')
      .set('authorization', `Bearer ${signAccessToken(claims, keys.privateKey, -10)}`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SESSION');
  });

  it('when the token is signed with another key, then 401', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const res = await request(app)
      .get('/v1/me')
      .set('authorization', `Bearer ${signAccessToken(claims, other)}`);
    expect(res.status).toBe(401);
  });

  it('when the header is missing or malformed, then 401', async () => {
    expect((await request(app).get('/v1/me')).status).toBe(401);
    expect((await request(app).get('/v1/me').set('authorization', 'Basic abc')).status).toBe(401);
  });
});
