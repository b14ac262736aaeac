import type { Express } from 'express';
import request, { type Response } from 'supertest';
import { assertMatchesOpenApi } from '@platform/testkit';
import { openapi } from '../src/openapi';

export interface Client {
  get(path: string): Promise<Response>;
  post(path: string, body?: unknown): Promise<Response>;
  put(path: string, body?: unknown): Promise<Response>;
  delete(path: string): Promise<Response>;
}

/** Requests with one project's keys; every response is checked against the OpenAPI document. */
export function clientFor(app: Express, headers: Record<string, string>): Client {
  const checked = async (pending: request.Test) => {
    const res = await pending;
    assertMatchesOpenApi(openapi, res as unknown as Parameters<typeof assertMatchesOpenApi>[1]);
    return res;
  };
  return {
    get: (path) => checked(request(app).get(path).set(headers)),
    post: (path, body) =>
      checked(
        request(app)
          .post(path)
          .set(headers)
          .send(body as object),
      ),
    put: (path, body) =>
      checked(
        request(app)
          .put(path)
          .set(headers)
          .send(body as object),
      ),
    delete: (path) => checked(request(app).delete(path).set(headers)),
  };
}
