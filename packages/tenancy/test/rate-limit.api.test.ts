import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import Redis from 'ioredis';
import request from 'supertest';
import { logLines } from '@platform/testkit';
import { createHttpApp, createLogger } from '@platform/http';
import { createRateLimit, byIp } from '../src';

function appWith(redis?: Redis, logger = createLogger('test', 'silent')) {
  const routes = Router();
  routes.get(
    '/limited',
    createRateLimit({ name: `test-${randomUUID()}`, windowMs: 60_000, limit: 2, key: byIp, redis, logger }),
    (_req, res) => {
      res.json({ ok: true });
    },
  );
  return createHttpApp({
    service: 'test',
    logger: createLogger('test', 'silent'),
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
  });
}

async function expectLimitedAfterTwo(app: ReturnType<typeof appWith>) {
  const first = await request(app).get('/v1/limited');
  expect(first.status).toBe(200);
  expect(first.headers['ratelimit-policy']).toBe('2;w=60');
  expect(first.headers['ratelimit']).toMatch(/^limit=2, remaining=1, reset=(59|60)$/);
  const second = await request(app).get('/v1/limited');
  expect(second.status).toBe(200);
  expect(second.headers['ratelimit']).toMatch(/^limit=2, remaining=0, reset=/);
  const third = await request(app).get('/v1/limited');
  expect(third.status).toBe(429);
  expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  expect(third.body).toEqual({
    success: false,
    error: { code: 'RATE_LIMITED', message: 'Too many requests, slow down' },
  });
}

describe('rate limits', () => {
  it('when the limit is passed (in-memory counters), then 429 RATE_LIMITED with Retry-After', async () => {
    await expectLimitedAfterTwo(appWith());
  });

  it('when the counter store is unreachable, then requests go through and the failure is logged', async () => {
    const { destination, lines: logged } = logLines();
    const logger = createLogger('test', 'warn', destination);
    // A real client whose server is gone: nothing listens on port 1.
    const unreachable = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    try {
      const app = appWith(unreachable, logger);
      for (let i = 0; i < 3; i++) expect((await request(app).get('/v1/limited')).status).toBe(200);
      expect(logged.join('')).toContain('rate limit store failed');
    } finally {
      unreachable.disconnect();
    }
  });

  const describeRedis = process.env.TEST_REDIS_URL ? describe : describe.skip;
  describeRedis('with Redis', () => {
    let redis: Redis;
    beforeAll(() => {
      redis = new Redis(process.env.TEST_REDIS_URL!);
    });
    afterAll(() => redis.disconnect());

    it('when two replicas share Redis, then they share one counter', async () => {
      const name = `shared-${randomUUID()}`;
      const routes = () => {
        const r = Router();
        r.get('/limited', createRateLimit({ name, windowMs: 60_000, limit: 2, key: byIp, redis }), (_q, s) => {
          s.json({ ok: true });
        });
        return createHttpApp({
          service: 't',
          logger: createLogger('t', 'silent'),
          openapi: {},
          routes: r,
          readiness: async () => ({ database: 'up', broker: 'none' }),
        });
      };
      const [replicaA, replicaB] = [routes(), routes()];
      expect((await request(replicaA).get('/v1/limited')).status).toBe(200);
      expect((await request(replicaB).get('/v1/limited')).status).toBe(200);
      expect((await request(replicaA).get('/v1/limited')).status).toBe(429);
    });

    it('when the limit is passed (Redis counters), then 429 with Retry-After', async () => {
      await expectLimitedAfterTwo(appWith(redis));
    });
  });
});
