import { waitFor } from '@platform/testkit';
import { useMailerService } from './support/mailer-test-service';
import type { ApiClient } from './support/mailer-test-service';
import { HANGING_SENDGRID_KEY } from './support/vendor-stubs';

// The defaults of a replica's send slots (4 per project, 8 in all) and a short vendor deadline.
const DEADLINE_MS = 1500;
const ctx = useMailerService({
  MAILER_VENDOR_TIMEOUT_MS: String(DEADLINE_MS),
  MAILER_SENDS_PER_PROJECT: '4',
  MAILER_SENDS_TOTAL: '8',
});

async function projectWithSendgrid(apiKey: string): Promise<ApiClient> {
  const { api } = await ctx.freshProject();
  await api.post('/v1/providers', {
    body: { name: 'sg', type: 'sendgrid', config: { apiKey, fromEmail: 'sg@example.com' } },
  });
  return api;
}

const send = (api: ApiClient, to: string | string[]) =>
  api.post('/v1/emails/send', { body: { to, subject: 'Hi', html: '<p>Hi</p>' } });
/** Requests the SendGrid stand-in received with the hanging key (each held until the deadline). */
const hanging = () =>
  ctx.sendgrid.requests.filter((r) => r.headers.authorization === `Bearer ${HANGING_SENDGRID_KEY}`).length;

describe('send slots are shared fairly', () => {
  it('when two projects’ providers hang with sends in flight, then each holds at most its share and a third project still sends (no 429)', async () => {
    const stuckA = await projectWithSendgrid(HANGING_SENDGRID_KEY);
    const stuckB = await projectWithSendgrid(HANGING_SENDGRID_KEY);
    const healthy = await projectWithSendgrid('SG.ok');
    const before = hanging();

    const sendsA = Array.from({ length: 4 }, (_, i) => send(stuckA, `a${i}@example.com`));
    await waitFor(() => hanging() >= before + 4);
    const sendsB = Array.from({ length: 4 }, (_, i) => send(stuckB, `b${i}@example.com`));
    // B's share beside A: 8 / (2 + 1) = 2 sends; the rest are refused at once.
    const settledB = await waitForRefusals(sendsB, 2);
    expect(settledB.filter((r) => r.status === 429)).toHaveLength(2);
    await waitFor(() => hanging() >= before + 6);

    for (let i = 0; i < 2; i++) {
      const res = await send(healthy, `c${i}@example.com`);
      expect(res.status).toBe(200);
    }
    const answers = await Promise.all([...sendsA, ...sendsB]);
    expect(answers.filter((r) => r.status === 502)).toHaveLength(6);
    expect(hanging()).toBe(before + 6);
  });

  it('when a send to 10 recipients meets a hanging provider, then its share of them go out at once and the send ends soon after the vendor deadline, the rest logged as not tried', async () => {
    const api = await projectWithSendgrid(HANGING_SENDGRID_KEY);
    const before = hanging();
    const recipients = Array.from({ length: 10 }, (_, i) => `r${i}@example.com`);
    const started = Date.now();
    const pending = send(api, recipients);
    // The project's share (4 while it sends alone) at once, not one vendor round trip after another.
    await waitFor(() => hanging() >= before + 4, { timeoutMs: DEADLINE_MS / 2 });
    const res = await pending;
    const elapsed = Date.now() - started;
    expect(res.status).toBe(502);
    expect(elapsed).toBeLessThan(2 * DEADLINE_MS);
    expect(hanging()).toBe(before + 4);
    const logs = (await api.get('/v1/logs?limit=50')).body.logs as {
      to: string;
      status: string;
      error: string;
      attempts: unknown[];
    }[];
    expect(logs).toHaveLength(10);
    expect(logs.every((log) => log.status === 'failed')).toBe(true);
    const notTried = logs.filter((log) => log.attempts.length === 0);
    expect(notTried).toHaveLength(6);
    expect(notTried[0].error).toMatch(/deadline/);
    expect((await api.get('/v1/stats')).body).toMatchObject({ total: 10, failed: 10 });
  });
});

/** Resolves with the answers once `count` of the sends were refused (the others still hang). */
async function waitForRefusals(sends: Promise<{ status: number }>[], count: number) {
  const settled: { status: number }[] = [];
  for (const s of sends) void s.then((r) => settled.push(r));
  await waitFor(() => settled.filter((r) => r.status === 429).length >= count, { timeoutMs: DEADLINE_MS / 2 });
  return settled;
}
