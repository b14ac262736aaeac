import type { Request, RequestHandler, Response } from 'express';
import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';

const DURATION = 'http_request_duration_seconds';
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type RouteLabels = { method: string; route: string; status: string };

/** Requests of one (method, route, status): a count, a latency sum and per-bucket counts. */
class RouteSeries {
  count = 0;
  sum = 0;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  readonly perBucket = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);

  constructor(readonly labels: RouteLabels) {}

  record(seconds: number): void {
    this.count++;
    this.sum += seconds;
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]) bucket++;
    this.perBucket[bucket]++;
  }
}

/**
 * A metric the registry reads at scrape time. prom-client's own Counter and Histogram hash
 * their label object on every observation, a cost every request of a busy API pays (see
 * docs/performance.md); these series are plain numbers found through the matched route. Services use it
 * too, for numbers they already keep (a buffer's length, a drop counter).
 */
export function scrapedMetric(
  name: string,
  help: string,
  type: 'counter' | 'gauge' | 'histogram',
  values: () => { labels: Record<string, string>; value: number; metricName?: string }[],
): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ ...metric, values: values() }),
    reset() {},
  };
  return metric as unknown as Metric;
}

const STARTED = Symbol('request start');
type TimedResponse = Response & { [STARTED]: number };

export interface HttpMetrics {
  registry: Registry;
  middleware: RequestHandler;
  handler: RequestHandler;
}

export interface HttpMetricsOptions {
  defaultMetrics?: boolean;
  /** The service's own metrics, served on /metrics with the HTTP ones. */
  extra?: Metric[];
}

/** Request count and latency per route and status, in a registry of the service's own. */
export function createHttpMetrics(
  service: string,
  { defaultMetrics = true, extra = [] }: HttpMetricsOptions = {},
): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (defaultMetrics) collectDefaultMetrics({ register: registry });
  for (const metric of extra) registry.registerMetric(metric);

  // Found through the matched route object, then method and status: no key string per request.
  const series = new Map<object | undefined, Map<string, Map<number, RouteSeries>>>();
  const seriesFor = (req: Request, status: number): RouteSeries => {
    let byMethod = series.get(req.route);
    if (!byMethod) series.set(req.route, (byMethod = new Map()));
    let byStatus = byMethod.get(req.method);
    if (!byStatus) byMethod.set(req.method, (byStatus = new Map()));
    let found = byStatus.get(status);
    if (!found) {
      // The route pattern, not the raw path, so ids do not explode the label set.
      // Express has reset req.baseUrl by now; every service route is mounted under /v1.
      const base = req.originalUrl.startsWith('/v1/') ? '/v1' : '';
      const route = req.route?.path ? `${base}${String(req.route.path)}` : 'unmatched';
      found = new RouteSeries({ method: req.method, route, status: String(status) });
      byStatus.set(status, found);
    }
    return found;
  };
  const allSeries = (): RouteSeries[] =>
    [...series.values()].flatMap((byMethod) => [...byMethod.values()].flatMap((byStatus) => [...byStatus.values()]));

  registry.registerMetric(
    scrapedMetric('http_requests_total', 'HTTP requests by route and status', 'counter', () =>
      allSeries().map((s) => ({ labels: s.labels, value: s.count })),
    ),
  );
  registry.registerMetric(
    scrapedMetric(DURATION, 'HTTP request latency by route and status', 'histogram', () =>
      allSeries().flatMap((s) => {
        let cumulative = 0;
        const buckets = LATENCY_BUCKETS.map((le, i) => {
          cumulative += s.perBucket[i];
          return { labels: { ...s.labels, le: String(le) }, value: cumulative, metricName: `${DURATION}_bucket` };
        });
        return [
          ...buckets,
          { labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${DURATION}_bucket` },
          { labels: s.labels, value: s.sum, metricName: `${DURATION}_sum` },
          { labels: s.labels, value: s.count, metricName: `${DURATION}_count` },
        ];
      }),
    ),
  );

  // One listener function shared by every response (no closure per request); the start time
  // rides on the response.
  function recordFinished(this: TimedResponse): void {
    seriesFor(this.req, this.statusCode).record((performance.now() - this[STARTED]) / 1000);
  }

  const middleware: RequestHandler = (_req, res, next) => {
    (res as TimedResponse)[STARTED] = performance.now();
    res.on('finish', recordFinished);
    next();
  };

  const handler: RequestHandler = async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };

  return { registry, middleware, handler };
}
