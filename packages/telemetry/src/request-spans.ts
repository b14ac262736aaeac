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
 * the request, its body and its response run in the span's context, so the queries, events,
 * vendor calls and log lines it makes join the trace. The sampler decides first; an unsampled
 * request only carries the context on (nothing is built for a span that is not recorded).
 * Named by route once the response ends (`nameServerSpan`), which is why this is a middleware
 * and not the HTTP instrumentation's: Express has matched the route by then.
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
    const active = trace.setSpan(parent, span);
    context.with(active, () => {
      // The body's and the response's events fire from the socket: bound, their listeners see the request's context.
      context.bind(active, req);
      context.bind(active, res);
      next();
    });
  };
}
