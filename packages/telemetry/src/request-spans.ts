import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { nameServerSpan } from './server-span';
import { platformTracer } from './tracing';

/** Probes and scrapes would be most of the spans and answer no question. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const pathOf = (url: string | undefined): string => {
  const at = (url ?? '/').indexOf('?');
  return at === -1 ? (url ?? '/') : url!.slice(0, at);
};

/**
 * The server span of every request a service answers, continuing the caller's `traceparent`:
 * the rest of the request runs in the span's context, so the queries, events, vendor calls and
 * log lines it makes join the trace. The sampler decides first, and an unsampled request only
 * carries the context on: the HTTP instrumentation's server side builds every attribute (and
 * records a metric) for each request before the sampler is asked. Named by route once the
 * response ends (`nameServerSpan`), when Express has matched the route.
 */
export function traceRequests(service: string) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const path = pathOf(req.url);
    if (UNTRACED_PATHS.has(path)) return next();
    const method = req.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = platformTracer().startSpan(method, { kind: SpanKind.SERVER }, parent);
    if (span.isRecording()) {
      span.setAttributes({
        'http.request.method': method,
        'url.path': path,
        'url.scheme': 'http',
        'platform.service': service,
      });
      res.once('close', () => {
        nameServerSpan(span, req, res);
        span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        // A response cut short (the client left) is a span that did not end well either.
        else if (!res.writableFinished) span.setAttribute('error.type', 'aborted');
        span.end();
      });
    }
    // The body readers hand over in the caller's async context, and a response's 'finish' fires
    // from its last write's: what follows keeps this context without binding req and res.
    context.with(trace.setSpan(parent, span), next);
  };
}
