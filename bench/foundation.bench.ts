/**
 * The shared middleware stack (request id, metrics, security headers, JSON body, key check
 * from cache, per-project rate limit, validation, error logging, error handler) against a bare
 * Express 5 app returning the same body. Target: the stack keeps at least 70% of the bare
 * throughput. Measured with the default LOG_LEVEL (info: errors and warnings are logged, no
 * line per request), and again with LOG_LEVEL=http, which adds one access-log line per request.
 */
import express, { Router } from 'express';
import { createHttpApp, createLogger, type Logger } from '@platform/http';
import { byProject, createRateLimit, Joi, pageSchema, parse, requireKeys } from '@platform/tenancy';
import { alternate, compare, formatComparison, runLoad } from './lib/load';
import { listenBare, listenService, type Listening } from './lib/listen';
import { benchPlatform, discardingLogger, type BenchPlatform } from './lib/platform';

const BODY = { items: [{ id: 'a', title: 'hello' }], total: 1, limit: 20, offset: 0 };
const querySchema = Joi.object({ ...pageSchema(20), q: Joi.string().max(100) });

function fullStack(platform: BenchPlatform, logger: Logger) {
  const routes = Router();
  routes.get(
    '/items',
    requireKeys(platform.directory),
    createRateLimit({ name: 'bench', windowMs: 60_000, limit: 100_000_000, key: byProject }),
    (req, res) => {
      const query = parse(querySchema, req.query);
      res.json({ ...BODY, limit: query.limit, offset: query.offset });
    },
  );
  return createHttpApp({
    service: 'bench',
    logger,
    openapi: {},
    routes,
    readiness: async () => ({ database: 'up', broker: 'none' }),
  });
}

export default async function foundationBench(): Promise<string[]> {
  const platform = await benchPlatform();
  const bareApp = express();
  bareApp.get('/v1/items', (_req, res) => {
    res.json(BODY);
  });
  const bare = await listenBare(bareApp);
  // The same bare app on our server (createHttpServer), to show what the middleware alone costs.
  const bareOnOurServer = await listenService(bareApp);
  const path = '/v1/items?limit=20&offset=0';
  const lines: string[] = [];

  const variants: [string, Logger, Listening, boolean][] = [
    [
      'shared middleware stack (LOG_LEVEL=info) vs bare Express 5, 50 connections',
      createLogger('bench', 'info'),
      bare,
      true,
    ],
    ['INFO the same with a JSON access-log line per request (LOG_LEVEL=http)', discardingLogger('bench'), bare, false],
    [
      'INFO the middleware alone: the stack vs bare Express on the same server (createHttpServer)',
      createLogger('bench', 'info'),
      bareOnOurServer,
      false,
    ],
  ];
  for (const [name, logger, bareServer, isTarget] of variants) {
    const full = await listenService(fullStack(platform, logger));
    await runLoad({ url: `${full.url}${path}`, headers: platform.headers, durationSeconds: 1 });
    await runLoad({ url: `${bareServer.url}${path}`, durationSeconds: 1 });
    const { subject, baseline } = await alternate(
      { url: `${full.url}${path}`, headers: platform.headers },
      { url: `${bareServer.url}${path}` },
    );
    const line = formatComparison(compare(name, subject, baseline, 0.7));
    lines.push(isTarget ? line : line.replace(/^(PASS|FAIL)  INFO /, 'INFO  '));
    await full.close();
  }
  await bare.close();
  await bareOnOurServer.close();
  await platform.close();
  return lines;
}
