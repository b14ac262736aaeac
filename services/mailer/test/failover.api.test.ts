import { waitFor } from '@platform/testkit';
import { useMailerService } from './support/mailer-test-service';
import type { ApiClient } from './support/mailer-test-service';
import {
  BAD_SENDGRID_KEY,
  DOWN_MAILGUN_KEY,
  DOWN_SENDGRID_KEY,
  HANGING_SENDGRID_KEY,
  REJECTED_RECIPIENT,
  TRICKLING_SENDGRID_KEY,
} from './support/vendor-stubs';

// A short vendor timeout so a hanging provider fails over quickly; two failures start a cool-down;
// one send in flight per project.
const ctx = useMailerService({
  MAILER_VENDOR_TIMEOUT_MS: '500',
  MAILER_FAILOVER_FAILURES: '2',
  MAILER_SENDS_PER_PROJECT: '1',
});

const sendgridWith = (apiKey: string, priority: number) => ({
  name: 'sg',
  type: 'sendgrid',
  priority,
  config: { apiKey, fromEmail: 'sg@example.com' },
});
const mailgunWith = (apiKey: string, priority: number) => ({
  name: 'mg',
  type: 'mailgun',
  priority,
  config: { apiKey, domain: 'mg.example.com', fromEmail: 'mg@example.com' },
});

/** A project with SendGrid (the primary, with `primaryKey`) and Mailgun as its second provider. */
async function projectWithPrimary(
  primaryKey: string,
): Promise<{ api: ApiClient; sendgridId: string; mailgunId: string }> {
  const { api } = await ctx.freshProject();
  const sendgridId = (await api.post('/v1/providers', { body: sendgridWith(primaryKey, 1) })).body.id;
  const mailgunId = (await api.post('/v1/providers', { body: mailgunWith('key-ok', 2) })).body.id;
  return { api, sendgridId, mailgunId };
}

const send = (api: ApiClient, to = 'ann@example.com') =>
  api.post('/v1/emails/send', { body: { to, subject: 'Hi', html: '<p>Hi</p>' } });
const logsOf = async (api: ApiClient) => (await api.get('/v1/logs')).body.logs.reverse();

describe('provider failover', () => {
  it.each([
    ['a 5xx', DOWN_SENDGRID_KEY],
    ['refused credentials', BAD_SENDGRID_KEY],
    ['a timeout', HANGING_SENDGRID_KEY],
    // Never idle, so only the overall deadline (MAILER_VENDOR_TIMEOUT_MS) ends it.
    ['an answer trickled a byte at a time', TRICKLING_SENDGRID_KEY],
  ])(
    'when the primary fails with %s, then the next provider delivers and the email is one log entry holding both attempts, counted once',
    async (_, key) => {
      const { api, sendgridId, mailgunId } = await projectWithPrimary(key);
      const mailgunBefore = ctx.mailgun.requests.length;
      const res = await send(api);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'sent', recipients: [{ status: 'sent', providerId: mailgunId }] });
      expect(ctx.mailgun.requests.length).toBe(mailgunBefore + 1);
      const logs = await logsOf(api);
      expect(logs).toEqual([
        expect.objectContaining({
          id: res.body.messageId,
          providerId: mailgunId,
          provider: 'mailgun',
          status: 'sent',
          to: 'ann@example.com',
          error: null,
        }),
      ]);
      const [sendgridTry, mailgunTry] = logs[0].attempts;
      expect(logs[0].attempts).toHaveLength(2);
      expect(sendgridTry).toMatchObject({ provider: 'sendgrid', providerId: sendgridId, outcome: 'failed' });
      expect(sendgridTry.error).toEqual(expect.any(String));
      expect(mailgunTry).toEqual({
        provider: 'mailgun',
        providerId: mailgunId,
        outcome: 'sent',
        error: null,
        vendorStatus: null,
        at: expect.stringMatching(/Z$/),
      });
      expect(Date.parse(mailgunTry.at)).toBeGreaterThanOrEqual(Date.parse(sendgridTry.at));
      // The sender is the delivering provider's own.
      expect(logs[0].from).toBe('mg@example.com');
      expect((await api.get('/v1/stats')).body).toMatchObject({ total: 1, sent: 1, failed: 0 });
    },
  );

  it('when the provider rejects the message itself (4xx), then no other provider is tried and the send fails', async () => {
    const { api, sendgridId } = await projectWithPrimary('SG.ok');
    const mailgunBefore = ctx.mailgun.requests.length;
    const res = await send(api, REJECTED_RECIPIENT);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('VENDOR_ERROR');
    expect(ctx.mailgun.requests.length).toBe(mailgunBefore);
    const logs = await logsOf(api);
    expect(logs).toEqual([expect.objectContaining({ providerId: sendgridId, status: 'failed' })]);
    expect(logs[0].attempts).toEqual([
      expect.objectContaining({ provider: 'sendgrid', outcome: 'failed', vendorStatus: expect.any(Number) }),
    ]);
  });

  it('when every provider fails, then the send is 500 and the email is one failed log entry with each attempt inside, counted once', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgridWith(DOWN_SENDGRID_KEY, 1) });
    await api.post('/v1/providers', { body: mailgunWith(DOWN_MAILGUN_KEY, 2) });
    const res = await send(api);
    expect(res.status).toBe(500);
    const logs = await logsOf(api);
    expect(logs.map((l: { provider: string; status: string }) => [l.provider, l.status])).toEqual([
      ['mailgun', 'failed'],
    ]);
    expect(logs[0].attempts.map((a: { provider: string; outcome: string }) => [a.provider, a.outcome])).toEqual([
      ['sendgrid', 'failed'],
      ['mailgun', 'failed'],
    ]);
    expect((await api.get('/v1/stats')).body).toMatchObject({ total: 1, sent: 0, failed: 1 });
  });

  it('when priorities are given, then the lower one is tried first even if the other is the default', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: { ...sendgridWith('SG.ok', 50), isDefault: true } });
    const mailgunId = (await api.post('/v1/providers', { body: mailgunWith('key-ok', 10) })).body.id;
    const res = await send(api);
    expect(res.body.recipients[0].providerId).toBe(mailgunId);
  });

  it('when the primary keeps failing, then after the threshold it is skipped for the cool-down and sends go straight to the next provider', async () => {
    const { api, mailgunId } = await projectWithPrimary(DOWN_SENDGRID_KEY);
    const sendgridBefore = ctx.sendgrid.requests.length;
    await send(api, 'one@example.com');
    await send(api, 'two@example.com');
    expect(ctx.sendgrid.requests.length).toBe(sendgridBefore + 2);
    const third = await send(api, 'three@example.com');
    expect(third.body.recipients[0]).toMatchObject({ status: 'sent', providerId: mailgunId });
    expect(ctx.sendgrid.requests.length).toBe(sendgridBefore + 2);
    const logs = await logsOf(api);
    const thirdLogs = logs.filter((l: { to: string }) => l.to === 'three@example.com');
    expect(thirdLogs).toHaveLength(1);
    expect(thirdLogs[0].attempts).toEqual([expect.objectContaining({ provider: 'mailgun', outcome: 'sent' })]);
  });

  it('when the only provider is cooling down, then it is still tried (there is nothing better)', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgridWith(DOWN_SENDGRID_KEY, 1) });
    const before = ctx.sendgrid.requests.length;
    for (let i = 0; i < 3; i++) expect((await send(api)).status).toBe(500);
    expect(ctx.sendgrid.requests.length).toBe(before + 3);
  });

  it('when a project already has its limit of sends in flight, then its next send is 429 and other projects still send', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgridWith(HANGING_SENDGRID_KEY, 1) });
    const other = await projectWithPrimary('SG.ok');
    const before = ctx.sendgrid.requests.length;
    const slow = send(api, 'slow@example.com');
    await waitFor(() => ctx.sendgrid.requests.length > before);
    const refused = await send(api, 'next@example.com');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await send(other.api)).status).toBe(200);
    expect((await slow).status).toBe(502);
  });
});
