import type { Express } from 'express';
import request from 'supertest';
import { assertMatchesOpenApi } from '@platform/testkit';
import { openapi } from '../../src/openapi';

export type Headers = Record<string, string>;

/** supertest against the app; every response is checked against the service's OpenAPI document. */
export function apiOf(app: Express) {
  const checked = async (pending: request.Test) => {
    const res = await pending;
    assertMatchesOpenApi(openapi, res);
    return res;
  };
  return {
    get: (path: string, headers: Headers) => checked(request(app).get(path).set(headers)),
    post: (path: string, headers: Headers, body?: unknown) =>
      checked(
        request(app)
          .post(path)
          .set(headers)
          .send(body as object),
      ),
    put: (path: string, headers: Headers, body?: unknown) =>
      checked(
        request(app)
          .put(path)
          .set(headers)
          .send(body as object),
      ),
  };
}
