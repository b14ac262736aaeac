import { Router } from 'express';
import request from 'supertest';
import { logLines } from '@platform/testkit';
import { errors, Joi, parse } from '@platform/tenancy';
import { inSpan } from '@platform/telemetry';
import { startInMemoryTracing } from '@platform/telemetry/src/in-memory';
import { createHttpApp, createLogger } from '../src';

function buildApp() {
  const { destination, lines } = logLines();
  const logger = createLogger('test', 'http', destination);
  const routes = Router();
  routes.post('/echo', (req, res) => {
    logger.info('echoing');
    res.json(parse(Joi.object({ name: Joi.string().required() }), req.body));
  });
  routes.get('/missing', () => {
    throw errors.notFound('Widget');
  });
  const app = createHttpApp({
    service: 'test',
    logger,
    openapi: { openapi: '3.1.0' },
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
  });
  return { app, lines };
}

/** What a client sees of a response, less what differs on every request. */
async function seen(app: ReturnType<typeof buildApp>['app']) {
  const answers = [
    await request(app).post('/v1/echo').set('x-request-id', 'r1').send({ name: 'ada' }),
    await request(app).post('/v1/echo').set('x-request-id', 'r2').send({}),
    await request(app).get('/v1/missing').set('x-request-id', 'r3'),
  ];
  return answers.map((res) => {
    const { date: _date, ...headers } = res.headers;
    return { status: res.status, headers, body: res.body as unknown };
  });
}

const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

/** Log lines less their timestamp and durations, and (with `withoutIds`) the trace ids. */
const comparable = (lines: Record<string, unknown>[], withoutIds = false) =>
  lines.map(({ timestamp: _t, durationMs: _d, trace_id, span_id, ...rest }) =>
    withoutIds ? rest : { ...rest, ...(trace_id ? { trace_id, span_id } : {}) },
  );

describe('tracing on and off', () => {
  it('when tracing is on, then responses are the same and log lines differ only by their trace ids', async () => {
    const off = buildApp();
    const offAnswers = await seen(off.app);

    const tracing = startInMemoryTracing();
    try {
      const on = buildApp();
      const onAnswers = await seen(on.app);
      expect(onAnswers).toEqual(offAnswers);

      // Inside a span, the same line gains its trace and span ids, and nothing else.
      const { destination, lines } = logLines();
      const logger = createLogger('test', 'info', destination);
      logger.info('outside', { eventId: 'e1' });
      const ids = await inSpan('work', {}, async (span) => {
        logger.info('outside', { eventId: 'e1' });
        return span.spanContext();
      });
      const [outside, inside] = parsed(lines);
      expect(comparable([inside], true)).toEqual(comparable([outside]));
      expect(inside).toMatchObject({ trace_id: ids.traceId, span_id: ids.spanId });
      expect(outside).not.toHaveProperty('trace_id');
      expect(comparable(parsed(on.lines), true)).toEqual(comparable(parsed(off.lines), true));
      expect(parsed(on.lines).length).toBeGreaterThan(3);
    } finally {
      await tracing.stop();
    }
  });
});
