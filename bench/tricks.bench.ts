/**
 * The HTTP layer's performance tricks (packages/http/src/performance), each measured on against
 * off in the same run, alternating rounds: a trick is kept only while "on" beats "off" by more
 * than the noise. Figures: docs/performance.md.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type Express } from 'express';
import { createHttpApp, createLogger, listenHttp, tricksWith, type PerformanceTricks } from '@platform/http';
import { alternate, compare, formatComparison } from './lib/load';

const BODY = { items: [{ id: 'a', title: 'hello' }], total: 1, limit: 20, offset: 0 };

/** The shared HTTP stack around one cheap route, with the given tricks. */
function stackWith(tricks: PerformanceTricks): Express {
  const routes = Router();
  routes.get('/items', (_req, res) => {
    res.json(BODY);
  });
  return createHttpApp({
    service: 'bench',
    logger: createLogger('bench', 'info'),
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
    tricks,
  });
}

function bareExpress(): Express {
  const app = express();
  app.get('/v1/items', (_req, res) => {
    res.json(BODY);
  });
  return app;
}

async function listen(app: Express, appPrototypes = true): Promise<{ url: string; server: Server }> {
  const server = await listenHttp(app, 0, '127.0.0.1', { appPrototypes });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/items`, server };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** One trick: the same app with it on and off, served at once, measured in alternating rounds. */
async function measure(name: string, on: { url: string }, off: { url: string }): Promise<string> {
  const { subject, baseline } = await alternate({ url: on.url }, { url: off.url });
  return formatComparison(compare(`${name}: on vs off`, subject, baseline, 1)).replace(/^(PASS|FAIL) /, 'INFO ');
}

export default async function tricksBench(): Promise<string[]> {
  const cases: [string, () => Promise<[{ url: string; server: Server }, { url: string; server: Server }]>][] = [
    [
      'appPrototypes (bare Express on createHttpServer)',
      async () => [await listen(bareExpress(), true), await listen(bareExpress(), false)],
    ],
    [
      'appPrototypes (the shared stack)',
      async () => [await listen(stackWith(tricksWith()), true), await listen(stackWith(tricksWith()), false)],
    ],
    ...(['recordedSecurityHeaders'] as const).map(
      (trick) =>
        [
          `${trick} (the shared stack)`,
          async () => [await listen(stackWith(tricksWith())), await listen(stackWith(tricksWith({ [trick]: false })))],
        ] as [string, () => Promise<[{ url: string; server: Server }, { url: string; server: Server }]>],
    ),
  ];
  const lines: string[] = [];
  for (const [name, start] of cases) {
    const [on, off] = await start();
    try {
      lines.push(await measure(name, on, off));
    } finally {
      await close(on.server);
      await close(off.server);
    }
  }
  return lines;
}
