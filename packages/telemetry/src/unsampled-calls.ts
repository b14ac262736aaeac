import type { RequestOptions } from 'node:http';
import { context, propagation } from '@opentelemetry/api';
import type { UndiciRequest } from '@opentelemetry/instrumentation-undici';
import { inRecordedTrace } from './tracing';

/** `traceparent` (and `tracestate`) of the trace going on, unsampled; none outside a trace. */
function traceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/**
 * The HTTP instrumentation's filter: a call inside a sampled trace gets its client span. Any
 * other call is passed over, so nothing is built for a span no one records; inside an unsampled
 * trace its context still goes on (the callee then does not sample either), added here to a copy
 * of the call's headers, as the instrumentation would have.
 */
export function passOverUnsampledRequest(options: RequestOptions): boolean {
  if (inRecordedTrace()) return false;
  const added = traceHeaders();
  if (added.traceparent && !Array.isArray(options.headers)) options.headers = { ...options.headers, ...added };
  return true;
}

/** The same for fetch (undici): the context of an unsampled trace is added to the request's headers. */
export function passOverUnsampledFetch(request: UndiciRequest): boolean {
  if (inRecordedTrace()) return false;
  for (const [name, value] of Object.entries(traceHeaders())) {
    if (typeof request.addHeader === 'function') request.addHeader(name, value);
    else if (typeof request.headers === 'string') request.headers += `${name}: ${value}\r\n`;
    else request.headers.push(name, value);
  }
  return true;
}
