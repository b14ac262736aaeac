import type { RequestHandler } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  middleware: RequestHandler;
  handler: RequestHandler;
}

/** Request count and latency per route and status, in a registry of the service's own. */
export function createHttpMetrics(service: string, { defaultMetrics = true } = {}): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (defaultMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });

  // One labelled child per (method, route, status), found by a string key instead of hashing
  // the label object on every request.
  const children = new Map<string, { count: Counter.Internal; latency: Histogram.Internal<string> }>();
  const childFor = (method: string, route: string, status: number) => {
    const key = `${method} ${route} ${status}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = { count: requests.labels(labels), latency: duration.labels(labels) };
      children.set(key, child);
    }
    return child;
  };

  const middleware: RequestHandler = (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      // The route pattern, not the raw path, so ids do not explode the label set.
      // Express has reset req.baseUrl by now; every service route is mounted under /v1.
      const base = req.originalUrl.startsWith('/v1/') ? '/v1' : '';
      const route = req.route?.path ? `${base}${String(req.route.path)}` : 'unmatched';
      const child = childFor(req.method, route, res.statusCode);
      child.count.inc();
      child.latency.observe(Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  };

  const handler: RequestHandler = async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };

  return { registry, middleware, handler };
}
