import path from 'node:path';
import {
  apiClient,
  createTestService,
  type ApiClient,
  type CoverageOptions,
  type HttpStub,
  type TestProject,
  type TestService,
} from '@platform/testkit';
import type { Express } from 'express';
import { mailerService } from '../../src/index';
import type { MailerShared } from '../../src/mailer-shared';
import { openapi } from '../../src/openapi';
import { startMailgunStub, startSendgridStub } from './vendor-stubs';

export type { ApiClient };

/** Mailer takes part in the run-wide check that every documented operation and status is exercised. */
export const coverage: CoverageOptions = {
  service: 'mailer',
  testDir: path.dirname(__dirname),
  exempt: [
    {
      pattern: ' (429|503)$',
      reason:
        'the shared per-project limit and database outage: packages/tenancy and e2e tests; send slots: src/emails/send-slots.test.ts',
    },
  ],
};

/** The shared test client over the app: requests and responses checked against the document, coverage recorded. */
export function mailerClient(app: Express, headers?: Record<string, string>) {
  return apiClient(app, { openapi, headers, coverage });
}

export interface MailerHarness {
  svc: TestService<MailerShared>;
  mailgun: HttpStub;
  sendgrid: HttpStub;
  /** A new project and a client holding its keys. */
  freshProject(): Promise<{ project: TestProject; api: ApiClient }>;
}

/**
 * For one test file: starts both vendors' stand-ins and the service pointed at them, with any
 * extra `env` (beforeAll),
 * and stops them all (afterAll). The fields are set once beforeAll has run.
 */
export function useMailerService(env: Record<string, string> = {}): MailerHarness {
  const harness = {
    async freshProject() {
      const project = await harness.svc.createProject();
      return { project, api: mailerClient(harness.svc.app, project.headers) };
    },
  } as MailerHarness;
  beforeAll(async () => {
    harness.mailgun = await startMailgunStub();
    harness.sendgrid = await startSendgridStub();
    harness.svc = await createTestService(mailerService, {
      env: { MAILGUN_API_BASE: harness.mailgun.url, SENDGRID_API_BASE: harness.sendgrid.url, ...env },
    });
  });
  afterAll(async () => {
    await harness.svc.close();
    await harness.mailgun.close();
    await harness.sendgrid.close();
  });
  return harness;
}
