import { AUTH_EVENTS, envelopeOf, type EventHandler } from '@platform/events';
import { authEmailHandler } from '../src';
import type { ApiClient } from './support/mailer-test-service';
import { useMailerService } from './support/mailer-test-service';

const ctx = useMailerService();
let handle: EventHandler;

beforeAll(() => {
  handle = authEmailHandler(ctx.svc.deps, ctx.svc.parts.shared.sending);
});

const welcome = {
  name: 'Welcome',
  templateKey: 'welcome',
  subject: 'Welcome {{name}}',
  html: '<p>Hello {{name}}</p>',
  text: 'Hello {{name}}',
  variants: {
    'pt-br': { subject: 'Bem-vindo {{name}}', html: '<p>Olá {{name}}</p>', text: 'Olá {{name}}' },
    pt: { subject: 'Bem-vindo (pt) {{name}}', html: '<p>Olá (pt)</p>' },
    'de-AT': { subject: 'Servus {{name}}', html: '<p>Servus</p>' },
  },
};

async function projectWithSendgrid(): Promise<ApiClient> {
  const { api } = await ctx.freshProject();
  await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k' } } });
  return api;
}

/** The subject SendGrid received for one send with `locale`. */
async function subjectSentFor(api: ApiClient, locale?: string): Promise<string> {
  const before = ctx.sendgrid.requests.length;
  const res = await api.post('/v1/emails/send', {
    body: {
      to: 'ana@example.com',
      templateId: 'welcome',
      templateData: { name: 'Ana' },
      ...(locale ? { locale } : {}),
    },
  });
  expect(res.status).toBe(200);
  return (ctx.sendgrid.requests[before].body as { subject: string }).subject;
}

describe('localized templates', () => {
  it('when a template is created with variants, then they are stored under canonical locale tags and listed', async () => {
    const api = await projectWithSendgrid();
    const created = await api.post('/v1/templates', { body: welcome });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.variants).sort()).toEqual(['de-AT', 'pt', 'pt-BR']);
    expect(created.body.variants['pt-BR']).toEqual({
      subject: 'Bem-vindo {{name}}',
      html: '<p>Olá {{name}}</p>',
      text: 'Olá {{name}}',
    });
    expect(created.body.locales).toEqual(['de-AT', 'pt', 'pt-BR']);
    const list = await api.get('/v1/templates');
    expect(list.body.templates[0].locales).toEqual(['de-AT', 'pt', 'pt-BR']);
    expect((await api.get(`/v1/templates/${created.body.id}`)).body.variants).toEqual(created.body.variants);
  });

  it('when a send names a locale, then the exact variant wins, then one of the same language, then the default', async () => {
    const api = await projectWithSendgrid();
    await api.post('/v1/templates', { body: welcome });
    expect(await subjectSentFor(api, 'pt-BR')).toBe('Bem-vindo Ana');
    expect(await subjectSentFor(api, 'pt-PT')).toBe('Bem-vindo (pt) Ana');
    expect(await subjectSentFor(api, 'de')).toBe('Servus Ana');
    expect(await subjectSentFor(api, 'fr-FR')).toBe('Welcome Ana');
    expect(await subjectSentFor(api)).toBe('Welcome Ana');
  });

  it('when a variant is edited, then the next send uses the new text', async () => {
    const api = await projectWithSendgrid();
    const { id } = (await api.post('/v1/templates', { body: welcome })).body;
    expect(await subjectSentFor(api, 'pt-BR')).toBe('Bem-vindo Ana');
    await api.put(`/v1/templates/${id}`, {
      body: { variants: { 'pt-BR': { subject: 'Oi {{name}}', html: '<p>Oi</p>' } } },
    });
    expect(await subjectSentFor(api, 'pt-BR')).toBe('Oi Ana');
    // Variants are replaced as a whole: the pt one is gone, so pt-PT falls back to pt-BR.
    expect(await subjectSentFor(api, 'pt-PT')).toBe('Oi Ana');
  });

  it('when a preview names a locale, then that variant is rendered', async () => {
    const api = await projectWithSendgrid();
    const { id } = (await api.post('/v1/templates', { body: welcome })).body;
    const res = await api.post(`/v1/templates/${id}/preview`, { body: { data: { name: 'Ana' }, locale: 'pt-BR' } });
    expect(res.body).toEqual({ subject: 'Bem-vindo Ana', html: '<p>Olá Ana</p>', text: 'Olá Ana' });
  });

  it('when variants are malformed, then 400 names the problem and nothing is stored', async () => {
    const api = await projectWithSendgrid();
    const bad = [
      { 'not a locale': { subject: 's', html: 'h' } },
      { 'pt-BR': { subject: 's', html: 'h' }, 'pt-br': { subject: 's', html: 'h' } },
      { fr: { subject: 's' } },
      { fr: { subject: 's', html: '{{#if}}' } },
      // 51 distinct three-letter languages: one more than allowed.
      Object.fromEntries(
        Array.from({ length: 51 }, (_, i) => [
          `x${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`,
          { subject: 's', html: 'h' },
        ]),
      ),
    ];
    for (const variants of bad) {
      const res = await api.post('/v1/templates', { body: { ...welcome, templateKey: null, variants } });
      expect(res.status).toBe(400);
    }
    const compile = await api.post('/v1/templates', {
      body: {
        ...welcome,
        variants: { fr: { subject: 's', html: '{{#if}}' } },
      },
    });
    expect(compile.body.error.details[0].path).toBe('variants.fr.html');
    expect((await api.get('/v1/templates')).body.total).toBe(0);
    // A prototype name is no locale: it is dropped, never stored.
    const proto = await api.post('/v1/templates', {
      body: {
        ...welcome,
        variants: JSON.parse('{"__proto__": {"subject": "s", "html": "h"}}'),
      },
    });
    expect(proto.body.variants).toEqual({});
    expect(
      (
        await api.post('/v1/emails/send', {
          body: { to: 'a@example.com', subject: 's', html: 'h', locale: 'nope_NOPE' },
        })
      ).status,
    ).toBe(400);
  });

  it("when another project has a variant for the locale, then this project's send does not see it", async () => {
    const api = await projectWithSendgrid();
    const other = await projectWithSendgrid();
    await api.post('/v1/templates', { body: { ...welcome, variants: {} } });
    await other.post('/v1/templates', { body: welcome });
    expect(await subjectSentFor(api, 'pt-BR')).toBe('Welcome Ana');
  });
});

describe('localized auth emails', () => {
  async function projectWithResetTemplate() {
    const { project, api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k' } } });
    await api.post('/v1/templates', {
      body: {
        name: 'Reset',
        templateKey: 'auth.reset-password',
        subject: 'Reset your password',
        html: '<a href="{{link}}">Reset</a>',
        variants: { es: { subject: 'Restablece tu contraseña', html: '<a href="{{link}}">Restablecer</a>' } },
      },
    });
    return { project, api };
  }

  const resetEvent = (project: { tenantId: string; projectId: string }, locale?: string) =>
    envelopeOf({
      type: AUTH_EVENTS.passwordResetRequested,
      tenantId: project.tenantId,
      projectId: project.projectId,
      data: {
        userId: 'u1',
        email: 'user@example.com',
        link: 'https://app.example.com/reset-password?token=t',
        expiresAt: '2026-11-23T10:00:00.000Z',
        ...(locale ? { locale } : {}),
      },
    });

  async function subjectOfAuthEmail(event: ReturnType<typeof resetEvent>) {
    const before = ctx.sendgrid.requests.length;
    await handle(event);
    return (ctx.sendgrid.requests[before].body as { subject: string }).subject;
  }

  it("when the user's locale has a variant (exact or by language), then the auth email uses it", async () => {
    const { project } = await projectWithResetTemplate();
    expect(await subjectOfAuthEmail(resetEvent(project, 'es'))).toBe('Restablece tu contraseña');
    expect(await subjectOfAuthEmail(resetEvent(project, 'es-MX'))).toBe('Restablece tu contraseña');
  });

  it("when the user's locale has no variant or there is none, then the template's default is used", async () => {
    const { project } = await projectWithResetTemplate();
    expect(await subjectOfAuthEmail(resetEvent(project, 'ja'))).toBe('Reset your password');
    expect(await subjectOfAuthEmail(resetEvent(project))).toBe('Reset your password');
  });

  it('when the recipient of an auth email is suppressed, then no provider is asked and the log says suppressed', async () => {
    const { project, api } = await projectWithResetTemplate();
    await api.post('/v1/suppressions', { body: { email: 'User@example.com', reason: 'bounce' } });
    const before = ctx.sendgrid.requests.length;
    await handle(resetEvent(project, 'es'));
    expect(ctx.sendgrid.requests.length).toBe(before);
    expect((await api.get('/v1/logs')).body.logs).toEqual([
      expect.objectContaining({ status: 'suppressed', suppressionReason: 'bounce', source: 'auth.reset-password' }),
    ]);
  });
});
