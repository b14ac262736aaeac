import request, { type Response } from 'supertest';
import type { Server } from 'node:http';
import type { Express } from 'express';
import { assertMatchesOpenApi, findOperation } from './openapi-check';
import { assertRequestMatchesOpenApi } from './openapi-request-check';
import { recordExercised, registerCoverage, type CoverageOptions } from './operation-coverage';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

export interface ApiCallOptions {
  headers?: Record<string, string>;
  /** Sent as `authorization: Bearer <token>`. */
  bearer?: string;
  query?: Record<string, string>;
  body?: unknown;
  /**
   * Why this request is deliberately outside the document although the service accepts it
   * (text Joi trims before checking its format, say); skips the request check, not the response's.
   */
  offContract?: string;
}

export interface ApiClientOptions {
  /** The service's OpenAPI document. */
  openapi: object;
  /** Sent with every request (a project's key headers, say); a call's own headers win. */
  headers?: Record<string, string>;
  /** Opts the service into the run-wide "every documented operation and status" check. */
  coverage?: CoverageOptions;
}

export type ApiCall = (path: string, options?: ApiCallOptions) => Promise<Response>;

export interface ApiClient {
  call(method: HttpMethod, path: string, options?: ApiCallOptions): Promise<Response>;
  get: ApiCall;
  post: ApiCall;
  put: ApiCall;
  patch: ApiCall;
  delete: ApiCall;
}

/** A body a test sends as JSON text (signed bytes, say) is checked as the JSON it is. */
function jsonOf(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/**
 * supertest against the app, checked against the service's OpenAPI document both ways: every
 * response's status and body must be documented, and every request the service accepted (2xx)
 * must be one the document allows. A request a test sends deliberately invalid is answered 4xx
 * and so is not checked. Paths may leave out the /v1 prefix. `app` may also be a listening
 * server (a service started as deployed).
 */
export function apiClient(app: Express | Server, options: ApiClientOptions): ApiClient {
  const { openapi, coverage } = options;
  if (coverage) registerCoverage(openapi, coverage);
  const call = async (method: HttpMethod, path: string, callOptions: ApiCallOptions = {}) => {
    const url = path.startsWith('/v1/') ? path : `/v1${path}`;
    const headers = {
      ...options.headers,
      ...callOptions.headers,
      ...(callOptions.bearer ? { authorization: `Bearer ${callOptions.bearer}` } : {}),
    };
    let pending = request(app)[method](url).set(headers);
    if (callOptions.query) pending = pending.query(callOptions.query);
    if (callOptions.body !== undefined) pending = pending.send(callOptions.body as object);
    const res = await pending;
    assertMatchesOpenApi(openapi, res);
    if (res.status >= 200 && res.status < 300 && !callOptions.offContract) {
      assertRequestMatchesOpenApi(openapi, {
        method,
        path: url,
        query: callOptions.query,
        headers,
        body: jsonOf(callOptions.body),
      });
    }
    if (coverage) {
      const bare = decodeURIComponent(url.split('?')[0]).replace(/^\/v1(?=\/)/, '');
      const found = findOperation(openapi, method, bare);
      if (found)
        recordExercised(
          coverage.service,
          `${method.toUpperCase()} ${found.template} ${res.status}`,
          expect.getState().testPath ?? '',
        );
    }
    return res;
  };
  return {
    call,
    get: (path, o) => call('get', path, o),
    post: (path, o) => call('post', path, o),
    put: (path, o) => call('put', path, o),
    patch: (path, o) => call('patch', path, o),
    delete: (path, o) => call('delete', path, o),
  };
}
