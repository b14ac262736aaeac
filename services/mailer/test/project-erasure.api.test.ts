import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { HttpStub } from '@platform/testkit';
import { createTestService, describeProjectErasure } from '@platform/testkit';
import { mailerService } from '../src';
import { ERASURE_TABLES } from '../src/project-erasure';
import { startSendgridStub } from './support/vendor-stubs';

let sendgrid: HttpStub;
beforeAll(async () => {
  sendgrid = await startSendgridStub();
});
afterAll(() => sendgrid.close());

describeProjectErasure({
  service: 'mailer',
  definition: mailerService,
  tables: ERASURE_TABLES,
  start: (bus) => createTestService(mailerService, { bus, env: { SENDGRID_API_BASE: sendgrid.url } }),
  async seed(svc, project) {
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      request(svc.app).post(`/v1${path}`).set(project.headers).set(headers).send(body);
    const provider = await post('/providers', {
      name: 'main',
      type: 'sendgrid',
      config: { apiKey: `SG.${randomBytes(8).toString('hex')}`, fromEmail: 'news@example.com' },
      isDefault: true,
    });
    expect(provider.status).toBe(201);
    const template = await post('/templates', { name: 'Welcome', subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>' });
    expect(template.status).toBe(201);
    const sent = await post(
      '/emails/send',
      { to: 'reader@example.com', templateId: template.body.id, templateData: { name: 'Ann' }, category: 'marketing' },
      { 'idempotency-key': randomBytes(8).toString('hex') },
    );
    expect(sent.status).toBe(200);
    expect((await post('/suppressions', { email: 'gone@example.com' })).status).toBe(201);
  },
  seeded: [
    'mail_providers',
    'email_templates',
    'email_logs',
    'mail_idempotency_keys',
    'mail_unsubscribe_secrets',
    'mail_suppressions',
  ],
});
