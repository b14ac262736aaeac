import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Metric } from 'prom-client';
import {
  errorHandler,
  HeldRefusals,
  notFoundHandler,
  type ErrorShape,
  type RefusalHoldLimits,
} from '@platform/tenancy';
import { traceRequests, tracingActive } from '@platform/telemetry';
import { docsRouter } from './docs-page';
import type { Logger } from './logger';
import { createHttpMetrics } from './metrics';
import { readBodiesAfterCredentials } from './body-after-credentials';
import { jsonBodyReader } from './body-readers';
import { ALL_TRICKS, type PerformanceTricks } from './performance';
import { requestId } from './request-context';
import { securityHeaders } from './security-headers';
import { recordRequestErrors } from './server-span-tag';

/** Express's `trust proxy`: false, a number of hops, or the trusted proxies' addresses and subnets. */
export type TrustProxy = false | number | string[];

export type DependencyStatus = 'up' | 'down' | 'none';

export interface Readiness {
  database: DependencyStatus;
  broker: DependencyStatus;
  /** Shutting down: still serving, but balancers should send nothing new. */
  draining?: boolean;
}

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  /** The service's OpenAPI 3.1 document, served at /v1/openapi.json. */
  openapi: object;
  /** The service's /v1 routes. */
  routes: Router;
  readiness: () => Promise<Readiness>;
  /** Largest accepted JSON body (RESOLUTIONS 1: 1 MiB unless configured). */
  bodyLimit?: string | number;
  /** The service's own metrics (see `scrapedMetric`), served on /metrics with the HTTP ones. */
  metrics?: Metric[];
  /** Which proxies' X-Forwarded-For is believed (TRUST_PROXY); `true` is one hop. */
  trustProxy?: boolean | TrustProxy;
  /** Checks that may refuse any request before its body is read (cheap, no I/O). */
  beforeBody?: RequestHandler[];
  /** Paths whose errors, wherever raised (before the route too), take another shape than the common envelope. */
  errorShapes?: ErrorShape[];
  /** How long repeat offenders' 429s are held (HeldRefusals); the defaults when absent. */
  refusalHolds?: RefusalHoldLimits;
  /** Performance tricks to switch off (benchmarks only); all are on by default. */
  tricks?: PerformanceTricks;
  /** Pages served beside the API (the console's web app), matched after the API, docs and probes. */
  site?: Router;
}

const accessLog =
  (logger: Logger): RequestHandler =>
  (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      logger.http('request', {
        requestId: req.requestId,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - start) / 1e6,
      });
    });
    next();
  };

/**
 * The common HTTP stack of every service: ids, security headers, body parsing, health, docs, errors.
 * A route's JSON body is read only once the route's headers-only middleware (credentials, limits)
 * has let it through (`readBodiesAfterCredentials`): nothing is parsed for a caller not yet known.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  const metrics = createHttpMetrics(options.service, { extra: options.metrics });
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy === true ? 1 : (options.trustProxy ?? false));
  app.set('etag', false);

  const tricks = options.tricks ?? ALL_TRICKS;
  readBodiesAfterCredentials(options.routes, jsonBodyReader(options.bodyLimit ?? '1mb', tricks.directJsonBodies));
  // First, so everything the request does runs in its span's context.
  if (tracingActive()) app.use(traceRequests(options.service));
  app.use(requestId(), metrics.middleware);
  if (options.logger.isLevelEnabled('http')) app.use(accessLog(options.logger));
  app.use(securityHeaders({ recorded: tricks.recordedSecurityHeaders }));
  for (const check of options.beforeBody ?? []) app.use(check);

  app.use('/v1', options.routes);

  // Docs, probes and metrics after the API, so API requests are not matched against them first.
  app.get('/v1/openapi.json', (_req, res) => {
    res.json(options.openapi);
  });
  app.use(docsRouter((options.openapi as { info?: { title?: string } }).info?.title ?? options.service));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const state = await options.readiness();
    const ready = state.database === 'up' && !state.draining;
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ok' : state.draining ? 'draining' : 'unavailable', ...state });
  });
  app.get('/metrics', metrics.handler);
  if (options.site) app.use(options.site);
  app.use(notFoundHandler);
  if (tracingActive()) app.use(recordRequestErrors());
  app.use(errorHandler(options.logger, new HeldRefusals(options.refusalHolds), options.errorShapes));
  return app;
}
