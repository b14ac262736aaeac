import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { AppError, errors } from './errors';
import { findString } from './text-guard';
import type { HeldRefusals } from './held-refusals';
import type { Logger } from 'winston';

interface HttpParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

// Postgres refusing a value the client sent (a NUL character in text, a character the encoding
// lacks, a date or number out of range): the request's fault, so 400 rather than 500.
const UNSTORABLE_VALUE = new Set(['22021', '22P05', '22008', '22003']);

const hasNul = (text: string) => text.includes('\u0000');

/** The 400 for a value Postgres refused, naming the input's first NUL character when it has one. */
function unstorableValue(input?: { query?: unknown; body?: unknown }): AppError {
  const path = input && (findString(input.query, hasNul) ?? findString(input.body, hasNul));
  if (path === undefined) {
    return errors.validation('A value in the request cannot be stored (for example a NUL character)');
  }
  return errors.validation('Input must not contain NUL (\\u0000) characters', [
    { path, message: 'contains a NUL character' },
  ]);
}

// Postgres out of reach: connection exceptions (class 08), the server shutting down or starting
// up, too many connections. Not the request's fault and not a bug: 503, retry shortly.
const UNREACHABLE_SQLSTATE = /^(08|57P0[123]|53300)/;
const UNREACHABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
// knex prefixes a failed query's message with its SQL and " - ".
const UNREACHABLE_MESSAGE =
  /(^| - )(Connection terminated|Connection ended unexpectedly|Client has encountered a connection error|Timeout acquiring a connection)/;
/** Seconds a client is asked to wait before retrying after a 503 for an unreachable dependency. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

/** True when `err` means a database (or another dependency) could not be reached. */
export function isUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | undefined;
  const code = String(e?.code ?? '');
  return (
    UNREACHABLE_SQLSTATE.test(code) ||
    UNREACHABLE_SOCKET.has(code) ||
    e?.name === 'KnexTimeoutError' ||
    UNREACHABLE_MESSAGE.test(String(e?.message ?? ''))
  );
}

/**
 * Turns anything thrown into the common envelope; the only place that shapes an error body.
 * `input` (the request's query and body) lets a refused value be named.
 */
export function toAppError(err: unknown, input?: { query?: unknown; body?: unknown }): AppError {
  if (err instanceof AppError) return err;
  const parserError = err as HttpParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return errors.validation('Request body is not valid JSON');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.aborted':
      return errors.validation('Request body could not be read');
  }
  if (UNSTORABLE_VALUE.has(String((err as { code?: unknown })?.code))) return unstorableValue(input);
  if (isUnreachable(err)) {
    return new AppError('SERVICE_UNAVAILABLE', 'A dependency of this service cannot be reached; retry shortly', {
      cause: err,
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
    });
  }
  const status = parserError?.status ?? parserError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return errors.validation('Malformed request');
  }
  return errors.internal(err);
}

/** Another body for the errors of some paths (OpenAI's shape on the LLM service's compatible routes). */
export interface ErrorShape {
  /** Full paths (`/v1/models`) whose errors, and those of the paths below them, take this shape. */
  paths: string[];
  /** The body of `error` (its message already public: an internal error's names only the request id). */
  body(error: AppError): object;
}

const shapeFor = (shapes: ErrorShape[] | undefined, path: string) =>
  shapes?.find((shape) => shape.paths.some((p) => path === p || path.startsWith(`${p}/`)));

// Beyond this much declared body (or an undeclared one), a refused request's unread body is not
// drained to keep the connection: it is closed after the answer.
const DRAIN_AT_MOST = 16 * 1024;

const unreadLargeBody = (req: Request) =>
  !req.readableDidRead &&
  !req.complete &&
  (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > DRAIN_AT_MOST);

/** The envelope of an error, with its headers (Retry-After as given). */
function sendError(req: Request, res: Response, appError: AppError, shapes?: ErrorShape[], retryAfter?: string): void {
  for (const [name, value] of Object.entries(appError.headers ?? {})) res.setHeader(name, value);
  if (retryAfter !== undefined) res.setHeader('Retry-After', retryAfter);
  if (unreadLargeBody(req)) res.setHeader('Connection', 'close');
  const internal = appError.code === 'INTERNAL_ERROR';
  const message = internal ? `Internal server error (request ${req.requestId})` : appError.message;
  const shape = shapeFor(shapes, req.path);
  if (shape) {
    const shown = internal ? new AppError('INTERNAL_ERROR', message) : appError;
    res.status(appError.status).json(shape.body(shown));
    return;
  }
  res.status(appError.status).json({
    success: false,
    error: {
      code: appError.code,
      message,
      ...(appError.details ? { details: appError.details } : {}),
      ...(internal ? { requestId: req.requestId } : {}),
    },
  });
}

/**
 * Shapes every error into the envelope (or, on the paths of `shapes`, into theirs); a repeat
 * offender's 429 is held by `held` first.
 */
export function errorHandler(logger: Logger, held?: HeldRefusals, shapes?: ErrorShape[]): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err, req);
    if (appError.catastrophic) {
      logger.error('request failed', {
        requestId: req.requestId,
        method: req.method,
        path: req.path,
        code: appError.code,
        cause: appError.cause ?? err,
      });
    }
    if (res.headersSent) return;
    const retryAfter = Number(appError.headers?.['Retry-After']);
    if (held && appError.offender !== undefined && retryAfter > 0) {
      return held.hold(appError.offender, retryAfter, res, (left) =>
        sendError(req, res, appError, shapes, String(left)),
      );
    }
    sendError(req, res, appError, shapes);
  };
}

export const notFoundHandler: RequestHandler = (req) => {
  throw new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`);
};
