import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { InProcessBus } from '@platform/events';
import { createTestDatabase, waitFor } from '@platform/testkit';
import { createDb } from '@platform/db';
import { createLogger } from '@platform/http';
import { loadPlatformConfig } from '@platform/runtime';
import { SecretBox } from '@platform/directory';
import { randomBytes } from 'node:crypto';
import { startService, type Infrastructure, type ServiceDefinition } from '../src';

describe('stopping a service (SIGTERM)', () => {
  it('when stopped with a request in flight, then /readyz turns red first while requests are still served, and the in-flight request completes', async () => {
    const database = await createTestDatabase('graceful_stop');
    const platformDb = createDb({ url: database.url, poolMax: 1 });
    const logger = createLogger('notifications', 'silent');
    let arrived = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const definition: ServiceDefinition = {
      name: 'notifications',
      defaultPort: 0,
      migrations: [],
      build: () => {
        const routes = Router();
        routes.get('/slow', async (_req, res) => {
          arrived = true;
          await released;
          res.json({ done: true });
        });
        routes.get('/fast', (_req, res) => {
          res.json({ done: true });
        });
        return { routes, openapi: {}, jobs: [], shared: undefined, close: async () => undefined };
      },
    };
    const config = loadPlatformConfig({ NODE_ENV: 'test', SHUTDOWN_READINESS_DELAY_MS: '1000' });
    const bus = new InProcessBus(logger);
    const infra: Infrastructure = {
      config,
      databaseUrl: async () => database.url,
      platformDb,
      bus,
      secrets: new SecretBox(randomBytes(32)),
      jwt: { publicKey: '' },
      close: async () => undefined,
    };
    const running = await startService(definition, infra, logger, 0);
    const url = `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const slow = fetch(`${url}/v1/slow`);
      await waitFor(() => arrived);

      const stopped = running.stop();
      await waitFor(async () => (await fetch(`${url}/readyz`)).status === 503);
      // Red, but still serving: the balancer has not taken it out yet.
      expect((await fetch(`${url}/v1/fast`)).status).toBe(200);

      release();
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ done: true });
      await stopped;
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      release();
      await bus.close();
      await platformDb.destroy();
      await database.drop();
    }
  });
});
