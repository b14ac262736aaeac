import { AUTH_EVENTS, envelopeOf, PLATFORM_EVENTS, type EventEnvelope, type EventHandler } from '@platform/events';
import { waitFor, type TestProject } from '@platform/testkit';
import { authEmailHandler } from '../src';
import { useMailerService } from './support/mailer-test-service';
import { BAD_SENDGRID_KEY, DOWN_SENDGRID_KEY, formFields } from './support/vendor-stubs';

const ctx = useMailerService();
const { freshProject } = ctx;
let handle: EventHandler;

beforeAll(() => {
  handle = authEmailHandler(ctx.svc.deps, ctx.svc.parts.shared.sending);
});

function authEvent(project: TestProject, type: string, data: object): EventEnvelope {
  return envelopeOf({ type, tenantId: project.tenantId, projectId: project.projectId, data });
}

const expiresAt = '2026-11-23T10:00:00.000Z';

/** A verification or password-reset request for `email`, carrying `link`. */
function linkEvent(project: TestProject, type: string, email: string, link: string): EventEnvelope {
  return authEvent(project, type, { userId: `user-${email}`, email, link, expiresAt });
}

describe('auth emails', () => {
  it("when the console announces an invitation, then its link is mailed once under the console's project", async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k' } } });
    const event = authEvent(project, PLATFORM_EVENTS.invitationCreated, {
      invitationId: 'inv-1',
      email: 'invitee@example.com',
      organisationName: 'Acme',
      role: 'developer',
      invitedBy: 'owner@example.com',
      link: 'https://console.example.com/accept-invitation?token=inv_abc',
      expiresAt,
    });
    const before = ctx.sendgrid.requests.length;
    await handle(event);
    await handle(event);
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    const body = ctx.sendgrid.requests[before].body as {
      subject: string;
      personalizations: { to: { email: string }[] }[];
      content: { value: string }[];
    };
    expect(body.subject).toBe('You are invited to an organisation');
    expect(body.personalizations[0].to[0].email).toBe('invitee@example.com');
    expect(body.content.map((c) => c.value).join('\n')).toContain('accept-invitation?token=inv_abc');
    expect((await api.get('/v1/logs')).body.logs[0]).toMatchObject({ source: 'console.invitation', status: 'sent' });
  });

  it('when the same verification event is delivered twice, then exactly one email is sent and logged', async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', {
      body: {
        name: 'sg',
        type: 'sendgrid',
        config: { apiKey: 'SG.k', fromEmail: 'auth@example.com' },
      },
    });
    const event = linkEvent(
      project,
      AUTH_EVENTS.verificationRequested,
      'new@example.com',
      'https://app.example.com/verify-email?token=abc&x=1',
    );
    const before = ctx.sendgrid.requests.length;
    await handle(event);
    await handle(event);
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    const body = ctx.sendgrid.requests[before].body as {
      subject: string;
      personalizations: { to: { email: string }[] }[];
      content: { value: string }[];
    };
    expect(body.subject).toBe('Verify your email address');
    expect(body.personalizations[0].to[0].email).toBe('new@example.com');
    expect(body.content.map((c) => c.value).join('\n')).toContain('https://app.example.com/verify-email?token=abc');
    const logs = await api.get('/v1/logs');
    expect(logs.body.logs).toHaveLength(1);
    expect(logs.body.logs[0]).toMatchObject({
      source: 'auth.verify-email',
      provider: 'sendgrid',
      status: 'sent',
      to: 'new@example.com',
    });
    expect((await api.get('/v1/stats')).body).toMatchObject({ total: 1, sent: 1 });
  });

  it('when two deliveries of one event race, then still exactly one email is sent', async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k' } } });
    const event = linkEvent(project, AUTH_EVENTS.passwordResetRequested, 'race@example.com', 'https://a/r?token=1');
    const before = ctx.sendgrid.requests.length;
    await Promise.all([handle(event), handle(event), handle(event)]);
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    expect((await api.get('/v1/logs')).body.total).toBe(1);
  });

  it('when the project has its own reset template, then it is rendered with {email, link, expiresAt} and sent via the default provider', async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', {
      body: {
        name: 'mg',
        type: 'mail_vendor_a',
        config: { apiKey: 'key-1', domain: 'mg.example.com' },
      },
    });
    await api.post('/v1/templates', {
      body: {
        name: 'Reset',
        templateKey: 'auth.reset-password',
        subject: 'Reset for {{email}}',
        html: '<a href="{{link}}">Reset</a> until {{expiresAt}}',
        text: 'Reset: {{link}}',
      },
    });
    const before = ctx.mailgun.requests.length;
    await handle(
      linkEvent(
        project,
        AUTH_EVENTS.passwordResetRequested,
        'old@example.com',
        'https://app/reset-password?token=t&y=2',
      ),
    );
    expect(ctx.mailgun.requests.length).toBe(before + 1);
    expect(formFields(ctx.mailgun.requests[before])).toMatchObject({
      to: ['old@example.com'],
      from: ['no-reply@mg.example.com'],
      subject: ['Reset for old@example.com'],
      html: [`<a href="https://app/reset-password?token&#x3D;t&amp;y&#x3D;2">Reset</a> until ${expiresAt}`],
      text: ['Reset: https://app/reset-password?token=t&y=2'],
    });
    expect((await api.get('/v1/logs')).body.logs[0]).toMatchObject({
      source: 'auth.reset-password',
      templateId: expect.any(String),
    });
  });

  it('when a registration needs verification and the project has no provider, then the outbox keeps the email with its link', async () => {
    const { project, api } = await freshProject();
    await handle(
      authEvent(project, AUTH_EVENTS.userRegistered, {
        userId: 'u3',
        email: 'signup@example.com',
        verification: { link: 'http://localhost:3000/verify-email?token=zzz', expiresAt },
      }),
    );
    const logs = (await api.get('/v1/emails/logs/signup@example.com')).body.logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ provider: 'outbox', status: 'sent', source: 'auth.verify-email' });
    expect(logs[0].text).toContain('http://localhost:3000/verify-email?token=zzz');
  });

  it('when a registration needs no verification, then no email is sent', async () => {
    const { project, api } = await freshProject();
    await handle(authEvent(project, AUTH_EVENTS.userRegistered, { userId: 'u4', email: 'plain@example.com' }));
    expect((await api.get('/v1/logs')).body.total).toBe(0);
  });

  it('when the vendor refuses the credentials, then one failed log is kept and a redelivery sends nothing more', async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: BAD_SENDGRID_KEY } } });
    const event = linkEvent(project, AUTH_EVENTS.verificationRequested, 'x@example.com', 'https://a/v?token=1');
    const before = ctx.sendgrid.requests.length;
    await handle(event);
    await handle(event);
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    expect((await api.get('/v1/stats')).body).toMatchObject({ total: 1, failed: 1 });
  });

  it('when the first provider is down and the second takes the email, then it is one log entry with both attempts, counted once', async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', {
      body: { name: 'sg', type: 'sendgrid', priority: 1, config: { apiKey: DOWN_SENDGRID_KEY } },
    });
    await api.post('/v1/providers', {
      body: { name: 'mg', type: 'mailgun', priority: 2, config: { apiKey: 'key-ok', domain: 'mg.example.com' } },
    });
    await handle(linkEvent(project, AUTH_EVENTS.verificationRequested, 'y@example.com', 'https://a/v?token=2'));
    const logs = (await api.get('/v1/logs')).body.logs;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ provider: 'mailgun', status: 'sent', source: 'auth.verify-email' });
    expect(logs[0].attempts.map((a: { provider: string; outcome: string }) => [a.provider, a.outcome])).toEqual([
      ['sendgrid', 'failed'],
      ['mailgun', 'sent'],
    ]);
    expect((await api.get('/v1/stats')).body).toMatchObject({ total: 1, sent: 1, failed: 0 });
  });

  it('when an event is published on the bus once the jobs started, then the consumer sends the email', async () => {
    const stop = await ctx.svc.startJobs();
    try {
      const { project, api } = await freshProject();
      await ctx.svc.deps.bus.publish(
        linkEvent(project, AUTH_EVENTS.passwordResetRequested, 'bus@example.com', 'https://a/r?token=2'),
      );
      const logs = await waitFor(async () => {
        const res = await api.get('/v1/emails/logs/bus@example.com');
        return res.body.logs.length ? res.body.logs : null;
      });
      expect(logs[0]).toMatchObject({ source: 'auth.reset-password', provider: 'outbox' });
    } finally {
      await stop();
    }
  });
});

describe('sign-in e-mails', () => {
  it('when Authentication asks for a sign-in e-mail, then the built-in one carries the link and the code', async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k' } } });
    const before = ctx.sendgrid.requests.length;
    await handle(
      authEvent(project, AUTH_EVENTS.signInRequested, {
        email: 'new@example.com',
        link: 'https://app.example.com/sign-in?token=tok',
        code: '042917',
        expiresAt,
      }),
    );
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    const body = ctx.sendgrid.requests[before].body as { subject: string; content: { value: string }[] };
    expect(body.subject).toBe('Your sign-in code: 042917');
    const content = body.content.map((c) => c.value).join('\n');
    expect(content).toContain('https://app.example.com/sign-in?token=tok');
    expect(content).toContain('042917');
    expect((await api.get('/v1/logs')).body.logs[0]).toMatchObject({ source: 'auth.sign-in', status: 'sent' });
  });

  it("when the project has an auth.sign-in template with a variant for the user's locale, then that variant is sent", async () => {
    const { project, api } = await freshProject();
    await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k' } } });
    await api.post('/v1/templates', {
      body: {
        name: 'Sign-in',
        templateKey: 'auth.sign-in',
        subject: 'Code {{code}}',
        html: '<p>{{code}} {{link}}</p>',
        variants: { 'pt-BR': { subject: 'Código {{code}}', html: '<p>{{code}} {{link}}</p>' } },
      },
    });
    const before = ctx.sendgrid.requests.length;
    await handle(
      authEvent(project, AUTH_EVENTS.signInRequested, {
        userId: 'u1',
        email: 'pt@example.com',
        link: 'https://app.example.com/sign-in?token=t2',
        code: '123456',
        expiresAt,
        locale: 'pt-BR',
      }),
    );
    const body = ctx.sendgrid.requests[before].body as { subject: string };
    expect(body.subject).toBe('Código 123456');
  });
});
