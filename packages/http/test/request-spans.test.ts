import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Router } from 'express';
import request from 'supertest';
import { logLines } from '@platform/testkit';
import { currentTraceCarrier, SpanKind } from '@platform/telemetry';
import { startInMemoryTracing, type InMemoryTracing } from '@platform/telemetry/src/in-memory';
import { createHttpApp, createLogger } from '../src';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const traceparent = (flags: '01' | '00') => `00-${TRACE_ID}-${CALLER_SPAN_ID}-${flags}`;

let tracing: InMemoryTracing;

beforeAll(() => {
  tracing = startInMemoryTracing();
});

afterAll(async () => {
  await tracing.stop();
});

beforeEach(() => tracing.reset());

function buildApp() {
  const { destination, lines } = logLines();
  const logger = createLogger('test', 'http', destination);
  const routes = Router();
  routes.post('/widgets/:id', (req, res) => {
    logger.info('widget saved');
    res.json({ carrier: currentTraceCarrier() ?? null, body: req.body as unknown });
  });
  routes.get('/boom', () => {
    throw new Error('the database went away');
  });
  const app = createHttpApp({
    service: 'widgets',
    logger,
    openapi: { openapi: '3.1.0' },
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
  });
  return { app, lines };
}

const serverSpans = () => tracing.spans().filter((span) => span.kind === SpanKind.SERVER);

describe('request spans', () => {
  it("when a caller's sampled request reaches a route, then its span continues the trace, is named by the route, and the handler runs in it", async () => {
    const { app, lines } = buildApp();
    const res = await request(app)
      .post('/v1/widgets/42?token=secret-in-the-query')
      .set('traceparent', traceparent('01'))
      .send({ name: 'ada' });
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ name: 'ada' });

    const [span] = serverSpans();
    expect(span.name).toBe('POST /v1/widgets/:id');
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/widgets/:id',
      'url.path': '/v1/widgets/42',
      'http.response.status_code': 200,
      'platform.service': 'widgets',
    });
    expect(JSON.stringify(span.attributes)).not.toContain('secret-in-the-query');
    // What the handler sends on and writes to its log is the request's span.
    expect(res.body.carrier.traceparent).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
    // The handler's line and the access log's, written as the response finished.
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ids = { trace_id: TRACE_ID, span_id: span.spanContext().spanId };
    expect(logged.find((l) => l.message === 'widget saved')).toMatchObject(ids);
    expect(logged.find((l) => l.message === 'request')).toMatchObject(ids);
  });

  it('when the body comes chunked (read by body-parser), then the handler still runs in the request span', async () => {
    const { app, lines } = buildApp();
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const post = http.request({
          port,
          method: 'POST',
          path: '/v1/widgets/9',
          headers: { 'content-type': 'application/json', traceparent: traceparent('01') },
        });
        post.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        });
        post.on('error', reject);
        post.write('{"name":');
        post.end('"cy"}');
      });
      const body = JSON.parse(answer) as { carrier: { traceparent: string }; body: unknown };
      expect(body.body).toEqual({ name: 'cy' });
      const [span] = serverSpans();
      expect(body.carrier.traceparent).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
      const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged.find((l) => l.message === 'widget saved')).toMatchObject({ trace_id: TRACE_ID });
    } finally {
      server.close();
    }
  });

  it("when the caller's trace is not sampled, then no span is recorded and the context still travels on, unsampled", async () => {
    const { app } = buildApp();
    const res = await request(app).post('/v1/widgets/7').set('traceparent', traceparent('00')).send({ name: 'bo' });
    expect(res.status).toBe(200);
    expect(res.body.carrier.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-00$`));
    expect(tracing.spans()).toEqual([]);
  });

  it('when a route fails with a 500, then its span is marked failed with the error code, not the message', async () => {
    const { app } = buildApp();
    expect((await request(app).get('/v1/boom')).status).toBe(500);
    const [span] = serverSpans();
    expect(span.name).toBe('GET /v1/boom');
    expect(span.status.code).toBe(2);
    expect(span.attributes).toMatchObject({ 'http.response.status_code': 500, 'error.type': 'Error' });
    expect(JSON.stringify([span.attributes, span.status, span.events])).not.toContain('database went away');
  });

  it('when a probe or a scrape is answered, then no span is started', async () => {
    const { app } = buildApp();
    expect((await request(app).get('/healthz')).status).toBe(200);
    expect((await request(app).get('/metrics')).status).toBe(200);
    expect(tracing.spans()).toEqual([]);
  });
});
