/**
 * The shared middleware stack (request id, metrics, access log, helmet, JSON body, key check
 * from cache, per-project rate limit, validation, error handler) against a bare Express 5 app
 * returning the same body. Target: the stack keeps at least 70% of the bare throughput.
 */
import express, { Router } from 'express';
import { byProject, createHttpApp, createRateLimit, Joi, pageSchema, parse, requireKeys } from '@platform/tenancy';
import { alternate, compare, formatComparison, runLoad } from './lib/load';
import { listen } from './lib/listen';
import { benchPlatform, discardingLogger } from './lib/platform';

const BODY = { items: [{ id: 'a', title: 'hello' }], total: 1, limit: 20, offset: 0 };
const querySchema = Joi.object({ ...pageSchema(20), q: Joi.string().max(100) });

export default async function foundationBench(): Promise<string[]> {
  const platform = await benchPlatform();

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
  const full = await listen(
    createHttpApp({
      service: 'bench',
      logger: discardingLogger('bench'),
      openapi: {},
      routes,
      readiness: async () => ({ database: 'up', broker: 'none' }),
    }),
  );

  const bareApp = express();
  bareApp.get('/v1/items', (_req, res) => {
    res.json(BODY);
  });
  const bare = await listen(bareApp);

  const path = '/v1/items?limit=20&offset=0';
  await runLoad({ url: `${full.url}${path}`, headers: platform.headers, durationSeconds: 1 });
  await runLoad({ url: `${bare.url}${path}`, durationSeconds: 1 });
  const { subject, baseline } = await alternate(
    { url: `${full.url}${path}`, headers: platform.headers },
    { url: `${bare.url}${path}` },
  );

  await full.close();
  await bare.close();
  await platform.close();
  return [formatComparison(compare('shared middleware stack vs bare Express 5 (50 connections)', subject, baseline, 0.7))];
}
