import type { AppError, ErrorShape } from '@platform/tenancy';
import { ModelNotFoundError } from './model-not-found';

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
 * Every error of the given routes (full paths, `/v1/models`) in OpenAI's shape (`error.message`,
 * `type`, `code`, `param`), wherever it is raised (the flood refusal, reading the body, the route),
 * so the OpenAI SDKs raise their usual classes; `success: false` and the details stay, so the body
 * is also our common envelope.
 */
export function openAiErrors(paths: string[]): ErrorShape {
  return {
    paths,
    body: (error: AppError) => ({
      success: false,
      error: {
        message: error.message,
        type: TYPES[error.status] ?? 'api_error',
        code: error instanceof ModelNotFoundError ? 'model_not_found' : error.code,
        param: error.details?.[0]?.path ?? null,
        ...(error.details ? { details: error.details } : {}),
      },
    }),
  };
}
