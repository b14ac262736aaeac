import type { ApiClient } from './support/mailer-test-service';
import { useMailerService } from './support/mailer-test-service';
import { BAD_SENDGRID_KEY, formFields } from './support/vendor-stubs';

const ctx = useMailerService();

async function freshProject(): Promise<ApiClient> {
  return (await ctx.freshProject()).api;
}

const mailgunInput = {
  name: 'Mailgun',
  type: 'mail_vendor_a',
  config: { apiKey: 'key-live-123', domain: 'mg.example.com' },
};
const sendgridInput = {
  name: 'SendGrid',
  type: 'mail_vendor_b',
  config: { apiKey: 'SG.live-456', fromEmail: 'hello@example.com' },
};

describe('providers', () => {
  it('when a placeholder type is given, then the provider is stored under the real vendor name and the config is not returned', async () => {
    const api = await freshProject();
    const res = await api.post('/v1/providers', { body: mailgunInput });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Mailgun',
      type: 'mailgun',
      priority: 100,
      isDefault: true,
      createdAt: expect.any(String),
    });
    const sg = await api.post('/v1/providers', { body: { ...sendgridInput, type: 'sendgrid' } });
    expect(sg.body.type).toBe('sendgrid');
    expect(JSON.stringify((await api.get('/v1/providers')).body)).not.toMatch(/key-live-123|SG\.live-456/);
  });

  it('when the config is stored, then the database holds it encrypted', async () => {
    const api = await freshProject();
    const res = await api.post('/v1/providers', { body: mailgunInput });
    const row = await ctx.svc.deps.db('mail_providers').where({ id: res.body.id }).first('config_enc');
    expect(row.config_enc).not.toContain('key-live-123');
    expect(ctx.svc.deps.secrets.decryptJson(row.config_enc)).toMatchObject({
      apiKey: 'key-live-123',
      domain: 'mg.example.com',
    });
  });

  it.each([
    ['no config', { name: 'x', type: 'mailgun' }, 'config'],
    ['mailgun without domain', { name: 'x', type: 'mail_vendor_a', config: { apiKey: 'k' } }, 'config.domain'],
    ['no apiKey', { name: 'x', type: 'mail_vendor_b', config: {} }, 'config.apiKey'],
    ['unknown type', { name: 'x', type: 'postmark', config: { apiKey: 'k' } }, 'type'],
    ['bad fromEmail', { name: 'x', type: 'sendgrid', config: { apiKey: 'k', fromEmail: 'nope' } }, 'config.fromEmail'],
    [
      'bad webhook key',
      { name: 'x', type: 'sendgrid', config: { apiKey: 'k', webhookPublicKey: 'abc' } },
      'config.webhookPublicKey',
    ],
  ])('when %s, then 400 names the field', async (_case, body, path) => {
    const api = await freshProject();
    const res = await api.post('/v1/providers', { body: body });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('when a second provider is created as default, then the old default is unset; otherwise the first stays default', async () => {
    const api = await freshProject();
    const first = await api.post('/v1/providers', { body: mailgunInput });
    const second = await api.post('/v1/providers', { body: sendgridInput });
    expect(second.body.isDefault).toBe(false);
    const third = await api.post('/v1/providers', { body: { ...sendgridInput, name: 'SG 2', isDefault: true } });
    expect(third.body.isDefault).toBe(true);
    const list = await api.get('/v1/providers');
    const defaults = list.body.providers
      .filter((p: { isDefault: boolean }) => p.isDefault)
      .map((p: { id: string }) => p.id);
    expect(defaults).toEqual([third.body.id]);
    expect(list.body.providers.map((p: { id: string }) => p.id)).toEqual([
      first.body.id,
      second.body.id,
      third.body.id,
    ]);
  });

  it('when several defaults are created at once, then exactly one provider is default', async () => {
    const api = await freshProject();
    await Promise.all(
      [1, 2, 3, 4].map((n) => api.post('/v1/providers', { body: { ...mailgunInput, name: `p${n}`, isDefault: true } })),
    );
    const list = await api.get('/v1/providers');
    expect(list.body.providers.filter((p: { isDefault: boolean }) => p.isDefault)).toHaveLength(1);
  });

  it('when another provider is made the default, then it alone is default; priority and name change in place', async () => {
    const api = await freshProject();
    const first = await api.post('/v1/providers', { body: mailgunInput });
    const second = await api.post('/v1/providers', { body: sendgridInput });
    const made = await api.patch(`/v1/providers/${second.body.id}`, { body: { isDefault: true, priority: 5 } });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ id: second.body.id, isDefault: true, priority: 5, name: 'SendGrid' });
    const renamed = await api.patch(`/v1/providers/${first.body.id}`, { body: { name: 'Backup' } });
    expect(renamed.body).toMatchObject({ name: 'Backup', isDefault: false, priority: 100 });
    const list = (await api.get('/v1/providers')).body.providers as { id: string; isDefault: boolean }[];
    expect(list.filter((provider) => provider.isDefault).map((provider) => provider.id)).toEqual([second.body.id]);
  });

  it.each([
    ['nothing to change', {}],
    ['unsetting the default', { isDefault: false }],
    ['a priority out of range', { priority: 1001 }],
  ])('when an update gives %s, then 400 and nothing changes', async (_case, body) => {
    const api = await freshProject();
    const provider = await api.post('/v1/providers', { body: mailgunInput });
    expect((await api.patch(`/v1/providers/${provider.body.id}`, { body })).status).toBe(400);
    expect((await api.get('/v1/providers')).body.providers).toEqual([provider.body]);
  });

  it("when another project's keys update a provider, then 404 and its default stays", async () => {
    const api = await freshProject();
    const other = await freshProject();
    const mine = await api.post('/v1/providers', { body: mailgunInput });
    await other.post('/v1/providers', { body: sendgridInput });
    const res = await other.patch(`/v1/providers/${mine.body.id}`, { body: { isDefault: true, name: 'stolen' } });
    expect(res.status).toBe(404);
    expect((await api.get('/v1/providers')).body.providers).toEqual([mine.body]);
    expect(
      (await other.get('/v1/providers')).body.providers.filter((p: { isDefault: boolean }) => p.isDefault),
    ).toHaveLength(1);
    expect((await api.patch('/v1/providers/not-a-uuid', { body: { priority: 1 } })).status).toBe(404);
  });

  it('when a Mailgun provider is tested, then mailgun.js sends to the stand-in and the result names the message', async () => {
    const api = await freshProject();
    const provider = await api.post('/v1/providers', {
      body: {
        ...mailgunInput,
        config: { ...mailgunInput.config, fromEmail: 'ops@mg.example.com' },
      },
    });
    const before = ctx.mailgun.requests.length;
    const res = await api.post(`/v1/providers/${provider.body.id}/test`, { body: { to: 'dev@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      messageId: expect.any(String),
      message: expect.stringContaining('dev@example.com'),
    });
    const sent = ctx.mailgun.requests[before];
    expect(sent.path).toBe('/v3/mg.example.com/messages');
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('api:key-live-123').toString('base64')}`);
    expect(formFields(sent)).toMatchObject({ to: ['dev@example.com'], from: ['ops@mg.example.com'] });
    const logs = await api.get('/v1/logs');
    expect(logs.body.logs[0]).toMatchObject({
      source: 'provider-test',
      provider: 'mailgun',
      status: 'sent',
      messageId: res.body.messageId,
    });
  });

  it('when a SendGrid provider is tested with a revoked key, then success is false with the vendor message, logged as failed', async () => {
    const api = await freshProject();
    const provider = await api.post('/v1/providers', {
      body: { ...sendgridInput, config: { apiKey: BAD_SENDGRID_KEY } },
    });
    const res = await api.post(`/v1/providers/${provider.body.id}/test`, { body: { to: 'dev@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      messageId: null,
      message: expect.stringContaining('authorization grant is invalid'),
    });
    expect(res.body.message).not.toContain(BAD_SENDGRID_KEY);
    expect((await api.get('/v1/logs')).body.logs[0]).toMatchObject({ status: 'failed', provider: 'sendgrid' });
  });

  it('when the test has no valid recipient, then 400; an unknown provider is 404', async () => {
    const api = await freshProject();
    const provider = await api.post('/v1/providers', { body: sendgridInput });
    expect((await api.post(`/v1/providers/${provider.body.id}/test`, { body: { to: 'nope' } })).status).toBe(400);
    expect(
      (await api.post('/v1/providers/00000000-0000-4000-8000-000000000000/test', { body: { to: 'a@example.com' } }))
        .status,
    ).toBe(404);
  });

  it("when another project's keys are used, then its providers are neither listed nor testable", async () => {
    const api = await freshProject();
    const other = await freshProject();
    const provider = await api.post('/v1/providers', { body: sendgridInput });
    expect((await other.get('/v1/providers')).body.providers).toEqual([]);
    expect((await other.post(`/v1/providers/${provider.body.id}/test`, { body: { to: 'a@example.com' } })).status).toBe(
      404,
    );
  });
});
