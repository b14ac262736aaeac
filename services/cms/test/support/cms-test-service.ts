import path from 'node:path';
import type { Express } from 'express';
import {
  apiClient,
  createTestService,
  type ApiClient,
  type CoverageOptions,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import { cmsService } from '../../src/index';
import type { CmsShared } from '../../src/cms-shared';
import { openapi } from '../../src/openapi';

export type Client = ApiClient;

/** The CMS takes part in the run-wide check that every documented operation and status is exercised. */
export const coverage: CoverageOptions = {
  service: 'cms',
  testDir: path.join(__dirname, '..'),
  exempt: [
    {
      pattern: ' (429|503)$',
      reason:
        "the shared per-project limits and a database outage: packages/tenancy, the robustness sweep and e2e tests; the pattern checks' 429/503 are tested here",
    },
  ],
};

/**
 * The shared test client with one project's keys: every response, and every request the
 * service accepts, is checked against the CMS's OpenAPI document.
 */
export function clientFor(app: Express, headers: Record<string, string>): Client {
  return apiClient(app, { openapi, headers, coverage });
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
