import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import Redis from 'ioredis';
import request from 'supertest';
import { createHttpApp, createLogger, createRateLimit, byIp } from '../src';

function appWith(redis?: Redis) {
  const routes = Router();
  routes.get(
    '/limited',
    createRateLimit({ name: `test-${randomUUID()}`, windowMs: 60_000, limit: 2, key: byIp, redis }),
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
  expect((await request(app).get('/v1/limited')).status).toBe(200);
  const second = await request(app).get('/v1/limited');
  expect(second.status).toBe(200);
  expect(second.headers['ratelimit']).toBeDefined();
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
