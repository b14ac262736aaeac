/**
 * The HTTP layer's performance tricks (packages/http/src/performance), each measured on against
 * off in the same run, alternating rounds: a trick is kept only while "on" beats "off" by more
 * than the noise. Figures: docs/performance.md.
 */
import express, { Router, type Express } from 'express';
import { createHttpApp, createLogger, tricksWith, type PerformanceTricks } from '@platform/http';
import { listenBare, listenService, type Listening } from './lib/listen';
import { alternate, compare, formatComparison } from './lib/load';

const BODY = { items: [{ id: 'a', title: 'hello' }], total: 1, limit: 20, offset: 0 };

/** The shared HTTP stack around one cheap route, with the given tricks. */
function stackWith(tricks: PerformanceTricks): Express {
  const routes = Router();
  routes.get('/items', (_req, res) => {
    res.json(BODY);
  });
  routes.post('/items', (req, res) => {
    res.status(201).json({ id: 'a', ...(req.body as object) });
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

/** One trick: the same app with it on and off, served at once, measured in alternating rounds. */
async function measure(name: string, on: Listening, off: Listening, post?: object): Promise<string> {
  const request = (url: string) => ({
    url: `${url}/v1/items`,
    ...(post ? { method: 'POST' as const, body: post } : {}),
  });
  try {
    const { subject, baseline } = await alternate(request(on.url), request(off.url));
    return formatComparison(compare(`${name}: on vs off`, subject, baseline, 1)).replace(/^(PASS|FAIL) /, 'INFO ');
  } finally {
    await on.close();
    await off.close();
  }
}

export default async function tricksBench(): Promise<string[]> {
  // appPrototypes is createHttpServer itself (listenService); its "off" side is node's stock server (listenBare).
  return [
    await measure(
      'appPrototypes (bare Express on createHttpServer)',
      await listenService(bareExpress()),
      await listenBare(bareExpress()),
    ),
    await measure(
      'appPrototypes (the shared stack)',
      await listenService(stackWith(tricksWith())),
      await listenBare(stackWith(tricksWith())),
    ),
    await measure(
      'recordedSecurityHeaders (the shared stack)',
      await listenService(stackWith(tricksWith())),
      await listenService(stackWith(tricksWith({ recordedSecurityHeaders: false }))),
    ),
    await measure(
      'directJsonBodies (the shared stack, a POST of a small JSON body)',
      await listenService(stackWith(tricksWith())),
      await listenService(stackWith(tricksWith({ directJsonBodies: false }))),
      { title: 'hello', tags: ['a', 'b'], done: false },
    ),
  ];
}
