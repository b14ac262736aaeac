/** The closed list of error codes (RESOLUTIONS section 1) and the one error type that carries them. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_SESSION: 401,
  FORBIDDEN: 403,
  PROVIDER_NOT_CONFIGURED: 403,
  NOT_FOUND: 404,
  USER_ALREADY_EXISTS: 409,
  CONFLICT: 409,
  GONE: 410,
  TOKEN_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  ACCOUNT_LOCKED: 423,
  TOO_EARLY: 425,
  RATE_LIMITED: 429,
  BUDGET_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  VENDOR_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** The internal cause: logged, never sent to the client. */
  cause?: unknown;
  headers?: Record<string, string>;
  status?: number;
  /**
   * A 429 for a repeat offender (this names it: an address, a project's use of a budget): the
   * error handler may hold it back until (at most) its Retry-After, see HeldRefusals.
   */
  offender?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  readonly offender?: string;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    // A client's error (4xx) is never logged with a stack, and a flood of them (bad keys, 429s)
    // would pay for capturing one each time.
    const stackTraceLimit = Error.stackTraceLimit;
    if ((options.status ?? ERROR_STATUS[code]) < 500) Error.stackTraceLimit = 0;
    try {
      super(message, options.cause === undefined ? undefined : { cause: options.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers;
    this.offender = options.offender;
  }

  /** True for errors that mean the service itself is broken (logged at error level). */
  get catastrophic(): boolean {
    return this.status >= 500;
  }
}

export const errors = {
  validation: (message: string, details?: ErrorDetail[]) => new AppError('VALIDATION_ERROR', message, { details }),
  unauthorized: (message = 'Invalid or missing API credentials') => new AppError('UNAUTHORIZED', message),
  invalidSession: (message = 'Session token is invalid or expired') => new AppError('INVALID_SESSION', message),
  forbidden: (message = 'Not allowed') => new AppError('FORBIDDEN', message),
  providerNotConfigured: (message: string) => new AppError('PROVIDER_NOT_CONFIGURED', message),
  notFound: (resource: string) => new AppError('NOT_FOUND', `${resource} not found`),
  conflict: (message: string) => new AppError('CONFLICT', message),
  gone: (message: string) => new AppError('GONE', message),
  tooEarly: (message: string) => new AppError('TOO_EARLY', message),
  /** A 429 with the seconds to wait; `offender` lets the error handler hold a repeat offender's answer. */
  rateLimited: (message: string, retryAfterSeconds: number, options: { offender?: string; cause?: unknown } = {}) =>
    new AppError('RATE_LIMITED', message, { ...options, headers: { 'Retry-After': String(retryAfterSeconds) } }),
  vendor: (message: string, cause?: unknown) => new AppError('VENDOR_ERROR', message, { cause }),
  /** A vendor that could not be reached: VENDOR_ERROR with 502. */
  vendorUnreachable: (message: string, cause?: unknown) =>
    new AppError('VENDOR_ERROR', message, { cause, status: 502 }),
  internal: (cause?: unknown) => new AppError('INTERNAL_ERROR', 'Internal server error', { cause }),
  unavailable: (message = 'Service temporarily unavailable') => new AppError('SERVICE_UNAVAILABLE', message),
};
