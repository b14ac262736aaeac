import type { ErrorRequestHandler } from 'express';
import { AppError } from '@platform/tenancy';

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/**
 * Errors of the OpenAI-compatible routes in OpenAI's shape (`error.message`, `type`, `code`,
 * `param`), so the OpenAI SDKs raise their usual classes; `success: false` and the details stay,
 * so the body is also our common envelope. Anything else goes on to the common handler (a 500).
 */
export const openAiErrors: ErrorRequestHandler = (err, _req, res, next) => {
  if (!(err instanceof AppError) || res.headersSent) return next(err);
  for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
  res.status(err.status).json({
    success: false,
    error: {
      message: err.message,
      type: TYPES[err.status] ?? 'api_error',
      code: err.code,
      param: err.details?.[0]?.path ?? null,
      ...(err.details ? { details: err.details } : {}),
    },
  });
};
