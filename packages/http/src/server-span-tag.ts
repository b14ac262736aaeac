import type { ErrorRequestHandler } from 'express';
import { errorCodeOf, recordFailure, trace } from '@platform/telemetry';

/**
 * Puts a failed request's error code (`VALIDATION_ERROR`, a SQLSTATE) on its span, then hands
 * the error to the error handler. A 5xx also marks the span failed; a refusal (4xx) is the
 * caller's error, not ours. Installed only while tracing is on.
 */
export function recordRequestErrors(): ErrorRequestHandler {
  return (error: unknown, _req, _res, next) => {
    const span = trace.getActiveSpan();
    if (span) {
      span.setAttribute('error.type', errorCodeOf(error));
      const status = (error as { status?: unknown } | null)?.status;
      if (typeof status !== 'number' || status >= 500) recordFailure(span, error);
    }
    next(error);
  };
}
