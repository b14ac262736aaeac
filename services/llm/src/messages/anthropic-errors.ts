import type { AppError, ErrorShape } from '@platform/tenancy';

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'overloaded_error',
};

/**
 * Every error of the given routes (full paths, `/v1/messages`) in Anthropic's shape (`{type: 'error', error: {type, message}}`),
 * wherever it is raised (the flood refusal, reading the body, the route), so Anthropic's SDKs
 * raise their usual classes; `success: false` and our code and details stay, so the body is also
 * our common envelope.
 */
export function anthropicErrors(paths: string[]): ErrorShape {
  return {
    paths,
    body: (error: AppError) => ({
      type: 'error',
      success: false,
      error: {
        type: TYPES[error.status] ?? 'api_error',
        message: error.message,
        code: error.code,
        ...(error.details ? { details: error.details } : {}),
      },
    }),
  };
}
