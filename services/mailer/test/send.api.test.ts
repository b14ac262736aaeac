import { createTestService } from '@platform/testkit';
import { mailerService } from '../src';
import { mailerClient, type ApiClient } from './support/mailer-test-service';
import { useMailerService } from './support/mailer-test-service';
import { BAD_MAILGUN_KEY, formFields } from './support/vendor-stubs';

const ctx = useMailerService();

async function freshProject(): Promise<ApiClient> {
  return (await ctx.freshProject()).api;
}

const mailgunProvider = {
  name: 'Mailgun',
  type: 'mail_vendor_a',
  config: { apiKey: 'key-abc', domain: 'mg.example.com', fromEmail: 'app@mg.example.com' },
};
const sendgridProvider = {
  name: 'SendGrid',
  type: 'mail_vendor_b',
  config: { apiKey: 'SG.abc', fromEmail: 'app@example.com' },
};

describe('sending', () => {
  it('when html is sent through Mailgun, then mailgun.js posts it to the stand-in and the attempt is logged', async () => {
    const api = await freshProject();
    const provider = await api.post('/v1/providers', { body: mailgunProvider });
    const before = ctx.mailgun.requests.length;
    const res = await api.post('/v1/emails/send', {
      body: {
        to: 'ann@example.com',
        subject: 'Hi',
        html: '<p>Hi</p>',
        text: 'Hi',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      messageId: expect.any(String),
      status: 'sent',
      to: 'ann@example.com',
      sentAt: expect.any(String),
      recipients: [
        { to: 'ann@example.com', messageId: res.body.messageId, status: 'sent', providerId: provider.body.id },
      ],
    });
    expect(ctx.mailgun.requests.length).toBe(before + 1);
    expect(formFields(ctx.mailgun.requests[before])).toMatchObject({
      to: ['ann@example.com'],
      from: ['app@mg.example.com'],
      subject: ['Hi'],
      html: ['<p>Hi</p>'],
      text: ['Hi'],
    });
    const logs = await api.get('/v1/logs');
    expect(logs.body.logs[0]).toMatchObject({
      id: res.body.messageId,
      to: 'ann@example.com',
      subject: 'Hi',
      status: 'sent',
      provider: 'mailgun',
      providerId: provider.body.id,
      vendorMessageId: expect.stringMatching(/@mg\.example\.com$/),
      html: null,
    });
  });

  it('when a template is sent by templateKey through SendGrid, then the rendered email reaches the stand-in', async () => {
    const api = await freshProject();
    await api.post('/v1/providers', { body: sendgridProvider });
    const template = await api.post('/v1/templates', {
      body: {
        name: 'Order',
        templateKey: 'order.shipped',
        subject: 'Order {{order}} shipped',
        html: '<p>{{name}}</p>{{#each items}}<i>{{this}}</i>{{/each}}',
        text: 'Dear {{name}}',
      },
    });
    const before = ctx.sendgrid.requests.length;
    const res = await api.post('/v1/emails/send', {
      body: {
        to: 'bob@example.com',
        templateId: 'order.shipped',
        templateData: { order: 42, name: 'Bob & <Co>', items: ['x', 'y'] },
        from: 'shop@example.com',
      },
    });
    expect(res.status).toBe(200);
    const sent = ctx.sendgrid.requests[before];
    expect(sent.headers.authorization).toBe('Bearer SG.abc');
    expect(sent.body).toMatchObject({
      from: { email: 'shop@example.com' },
      subject: 'Order 42 shipped',
      personalizations: [{ to: [{ email: 'bob@example.com' }] }],
      content: [
        { type: 'text/plain', value: 'Dear Bob & <Co>' },
        { type: 'text/html', value: '<p>Bob &amp; &lt;Co&gt;</p><i>x</i><i>y</i>' },
      ],
    });
    const log = (await api.get('/v1/logs')).body.logs[0];
    expect(log).toMatchObject({
      templateId: template.body.id,
      provider: 'sendgrid',
      vendorMessageId: expect.stringMatching(/^sgMsg/),
    });
  });

  it('when a template is sent by id with an explicit subject, then the explicit subject wins', async () => {
    const api = await freshProject();
    await api.post('/v1/providers', { body: sendgridProvider });
    const template = await api.post('/v1/templates', {
      body: { name: 'T', subject: 'From template', html: '<p>x</p>' },
    });
    const before = ctx.sendgrid.requests.length;
    const res = await api.post('/v1/emails/send', {
      body: {
        to: 'c@example.com',
        templateId: template.body.id,
        subject: 'Explicit',
      },
    });
    expect(res.status).toBe(200);
    expect((ctx.sendgrid.requests[before].body as { subject: string }).subject).toBe('Explicit');
  });

  it("when templateId is one template's id and another's templateKey, then the templateKey match is sent", async () => {
    const api = await freshProject();
    await api.post('/v1/providers', { body: sendgridProvider });
    const byId = await api.post('/v1/templates', { body: { name: 'A', subject: 'By id', html: '<p>a</p>' } });
    await api.post('/v1/templates', {
      body: { name: 'B', templateKey: byId.body.id, subject: 'By key', html: '<p>b</p>' },
    });
    const before = ctx.sendgrid.requests.length;
    expect(
      (await api.post('/v1/emails/send', { body: { to: 'd@example.com', templateId: byId.body.id } })).status,
    ).toBe(200);
    expect((ctx.sendgrid.requests[before].body as { subject: string }).subject).toBe('By key');
  });

  it.each([
    ['no to', { subject: 's', html: 'h' }],
    ['a bad to', { to: 'nope', subject: 's', html: 'h' }],
    ['no subject without a template', { to: 'a@example.com', html: 'h' }],
    ['neither html nor template', { to: 'a@example.com', subject: 's' }],
    ['both html and template', { to: 'a@example.com', subject: 's', html: 'h', templateId: 'x' }],
    ['templateData that is not an object', { to: 'a@example.com', templateId: 'x', templateData: 'y' }],
  ])('when the body has %s, then 400 VALIDATION_ERROR', async (_case, body) => {
    const api = await freshProject();
    const res = await api.post('/v1/emails/send', { body: body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('when the template does not exist in this project, then 404', async () => {
    const api = await freshProject();
    const other = await freshProject();
    const template = await other.post('/v1/templates', {
      body: { name: 'T', templateKey: 'theirs', subject: 's', html: 'h' },
    });
    expect((await api.post('/v1/emails/send', { body: { to: 'a@example.com', templateId: 'theirs' } })).status).toBe(
      404,
    );
    expect(
      (await api.post('/v1/emails/send', { body: { to: 'a@example.com', templateId: template.body.id } })).status,
    ).toBe(404);
  });

  it('when the vendor refuses, then 500 VENDOR_ERROR without the key, and the log says failed', async () => {
    const api = await freshProject();
    await api.post('/v1/providers', {
      body: {
        ...mailgunProvider,
        config: { ...mailgunProvider.config, apiKey: BAD_MAILGUN_KEY },
      },
    });
    const res = await api.post('/v1/emails/send', {
      body: { to: 'ann@example.com', subject: 'Hi', html: '<p>Hi</p>' },
    });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('VENDOR_ERROR');
    expect(JSON.stringify(res.body)).not.toContain(BAD_MAILGUN_KEY);
    const logs = await api.get('/v1/logs');
    expect(logs.body.logs[0]).toMatchObject({
      status: 'failed',
      provider: 'mailgun',
      error: expect.any(String),
      vendorMessageId: null,
    });
    expect((await api.get('/v1/stats')).body).toEqual({
      total: 1,
      sent: 0,
      delivered: 0,
      bounced: 0,
      failed: 1,
      suppressed: 0,
    });
  });

  it('when the vendor cannot be reached, then 502 VENDOR_ERROR and the log says failed', async () => {
    const unreachable = await createTestService(mailerService, { env: { SENDGRID_API_BASE: 'http://127.0.0.1:9' } });
    try {
      const api = mailerClient(unreachable.app, (await unreachable.createProject()).headers);
      await api.post('/v1/providers', { body: sendgridProvider });
      const res = await api.post('/v1/emails/send', { body: { to: 'a@example.com', subject: 's', html: 'h' } });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('VENDOR_ERROR');
      expect((await api.get('/v1/stats')).body.failed).toBe(1);
    } finally {
      await unreachable.close();
    }
  });

  it('when the project has no provider outside production, then the outbox stores the rendered email as sent', async () => {
    const api = await freshProject();
    const res = await api.post('/v1/emails/send', {
      body: {
        to: 'dev@example.com',
        subject: 'Local',
        html: '<p>Link</p>',
        text: 'Link',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('sent');
    const log = (await api.get('/v1/emails/logs/dev@example.com')).body.logs[0];
    expect(log).toMatchObject({
      provider: 'outbox',
      providerId: null,
      subject: 'Local',
      html: '<p>Link</p>',
      text: 'Link',
      status: 'sent',
    });
  });

  it('when the project has no provider in production, then 403 PROVIDER_NOT_CONFIGURED', async () => {
    const production = await createTestService(mailerService, { env: { NODE_ENV: 'production' } });
    try {
      const api = mailerClient(production.app, (await production.createProject()).headers);
      const res = await api.post('/v1/emails/send', { body: { to: 'a@example.com', subject: 's', html: 'h' } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    } finally {
      await production.close();
    }
  });
});

describe('logs and stats', () => {
  let api: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    api = await freshProject();
    other = await freshProject();
    await api.post('/v1/providers', { body: sendgridProvider });
    for (let i = 1; i <= 5; i++) {
      await api.post('/v1/emails/send', {
        body: {
          to: i % 2 ? 'Odd@Example.com' : 'even@example.com',
          subject: `n${i}`,
          html: 'h',
        },
      });
    }
  });

  it('when logs are listed, then they come newest first with total, limit (default 50) and offset', async () => {
    const res = await api.get('/v1/logs');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, limit: 50, offset: 0 });
    expect(res.body.logs.map((l: { subject: string }) => l.subject)).toEqual(['n5', 'n4', 'n3', 'n2', 'n1']);
  });

  it('when limit and offset are given, then that page comes back; bad values are 400', async () => {
    const res = await api.get('/v1/logs?limit=2&offset=1');
    expect(res.body.logs.map((l: { subject: string }) => l.subject)).toEqual(['n4', 'n3']);
    expect(res.body).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect((await api.get('/v1/logs?limit=101')).status).toBe(400);
    expect((await api.get('/v1/logs?offset=-1')).status).toBe(400);
  });

  it('when logs of one recipient are asked for, then only theirs come back, newest first, whatever the case', async () => {
    const res = await api.get('/v1/emails/logs/odd@example.com');
    expect(res.status).toBe(200);
    expect(res.body.logs.map((l: { subject: string }) => l.subject)).toEqual(['n5', 'n3', 'n1']);
    expect((await api.get('/v1/emails/logs/not-an-email')).status).toBe(400);
  });

  it('when stats are asked for, then they count this project only', async () => {
    expect((await api.get('/v1/stats')).body).toEqual({
      total: 5,
      sent: 5,
      delivered: 0,
      bounced: 0,
      failed: 0,
      suppressed: 0,
    });
    expect((await other.get('/v1/stats')).body).toEqual({
      total: 0,
      sent: 0,
      delivered: 0,
      bounced: 0,
      failed: 0,
      suppressed: 0,
    });
  });

  it("when another project's keys are used, then none of these logs are visible", async () => {
    expect((await other.get('/v1/logs')).body).toMatchObject({ logs: [], total: 0 });
    expect((await other.get('/v1/emails/logs/odd@example.com')).body.logs).toEqual([]);
  });
});
