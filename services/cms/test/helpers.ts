import type { Express } from 'express';
import request, { type Response } from 'supertest';
import { assertMatchesOpenApi, createTestService, type TestProject, type TestService } from '@platform/testkit';
import { cmsService, type CmsShared } from '../src';
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
    const res = await pending.set(headers);
    assertMatchesOpenApi(openapi, res);
    return res;
  };
  const withBody = (pending: request.Test, body: unknown) => checked(pending.send(body as object));
  return {
    get: (path) => checked(request(app).get(path)),
    post: (path, body) => withBody(request(app).post(path), body),
    put: (path, body) => withBody(request(app).put(path), body),
    delete: (path) => checked(request(app).delete(path)),
  };
}

export interface CmsTest {
  svc: TestService<CmsShared>;
  project: TestProject;
  /** A client with `project`'s keys. */
  api: Client;
  /** A client of a new project, for tests that count or list, or check isolation. */
  freshClient(): Promise<Client>;
}

/**
 * The CMS against the test database, with one project to work in; `env` on top of the
 * process's. Its `close` also ends the pattern checker's and the validator's threads.
 */
export async function startCms(env: Record<string, string> = {}): Promise<CmsTest> {
  const svc = await createTestService(cmsService, { env });
  const project = await svc.createProject();
  return {
    svc,
    project,
    api: clientFor(svc.app, project.headers),
    freshClient: async () => clientFor(svc.app, (await svc.createProject()).headers),
  };
}
