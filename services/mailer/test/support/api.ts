import request from 'supertest';
import type { Response } from 'supertest';
import { assertMatchesOpenApi, type TestService } from '@platform/testkit';
import { openapi } from '../../src/openapi';

type Method = 'get' | 'post' | 'put' | 'delete';

/** Requests through the real app; every response is checked against the OpenAPI document. */
export function apiClient(svc: TestService, headers: Record<string, string>) {
  const call = async (
    method: Method,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> => {
    let req = request(svc.app)
      [method](path)
      .set({ ...headers, ...extraHeaders });
    if (body !== undefined) req = req.send(body as object);
    const res = await req;
    assertMatchesOpenApi(openapi, { status: res.status, body: res.body, req: { method: method.toUpperCase(), path } });
    return res;
  };
  return {
    get: (path: string) => call('get', path),
    post: (path: string, body?: unknown, extra?: Record<string, string>) => call('post', path, body ?? {}, extra),
    put: (path: string, body: unknown) => call('put', path, body),
    delete: (path: string) => call('delete', path),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
