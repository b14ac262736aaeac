import { createTestService, type HttpStub, type TestProject, type TestService } from '@platform/testkit';
import { mailerService, type MailerShared } from '../../src';
import { apiClient, type ApiClient } from './api';
import { startMailgunStub, startSendgridStub } from './vendor-stubs';

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
      return { project, api: apiClient(harness.svc, project.headers) };
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
