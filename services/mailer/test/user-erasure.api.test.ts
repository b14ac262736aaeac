import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createTestService, describeUserErasure, type HttpStub, type TestProject } from '@platform/testkit';
import { mailerService } from '../src';
import { startSendgridStub } from './support/vendor-stubs';

let sendgrid: HttpStub;
beforeAll(async () => {
  sendgrid = await startSendgridStub();
});
afterAll(() => sendgrid.close());

const providers = new Set<string>();

describeUserErasure({
  service: 'mailer',
  start: (bus) => createTestService(mailerService, { bus, env: { SENDGRID_API_BASE: sendgrid.url } }),
  // A mail to the user's address, by a send that keeps its answer under an idempotency key.
  async seed(svc, project: TestProject, user) {
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      request(svc.app).post(`/v1${path}`).set(project.headers).set(headers).send(body);
    if (!providers.has(project.projectId)) {
      const provider = await post('/providers', {
        name: 'main',
        type: 'sendgrid',
        config: { apiKey: `SG.${randomBytes(8).toString('hex')}`, fromEmail: 'news@example.com' },
        isDefault: true,
      });
      expect(provider.status).toBe(201);
      providers.add(project.projectId);
    }
    const sent = await post(
      '/emails/send',
      // The address as the app typed it: the erasure matches it whatever its case.
      { to: user.email!.toLowerCase(), subject: 'Your receipt', html: '<p>Thanks</p>' },
      { 'idempotency-key': randomBytes(8).toString('hex') },
    );
    expect(sent.status).toBe(200);
  },
  personalColumns: {
    'email_logs.from_email': "the project's sender, not a user",
    'email_logs.to_email': 'the logs to the address are deleted',
    'mail_suppressions.email': "kept: the address's own request not to be mailed",
  },
  async held(svc, project, user) {
    const owner = { tenant_id: project.tenantId, project_id: project.projectId };
    const logs = await svc.deps
      .db('email_logs')
      .where(owner)
      .whereRaw('lower(to_email) = lower(?)', [user.email])
      .count<{ n: string }[]>('* as n');
    const answers = await svc.deps
      .db('mail_idempotency_keys')
      .where(owner)
      .whereRaw('response::text ilike ?', [`%${user.email}%`])
      .count<{ n: string }[]>('* as n');
    return Number(logs[0].n) + Number(answers[0].n);
  },
});
