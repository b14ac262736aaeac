import { mailerClient, useMailerService } from './support/mailer-test-service';
import { sendThroughDefault } from './support/webhooks';

const ctx = useMailerService();

const DAY_MS = 86_400_000;
const dayOf = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const sendgridProvider = {
  name: 'SendGrid',
  type: 'sendgrid',
  config: { apiKey: 'SG.abc', fromEmail: 'app@example.com' },
  isDefault: true,
};

describe('statistics per day', () => {
  it('when a project asks for its daily statistics, then its emails are counted per UTC day sent and status, and no other project’s', async () => {
    const { project, api } = await ctx.freshProject();
    const other = await ctx.freshProject();
    for (const client of [api, other.api])
      expect((await client.post('/v1/providers', { body: sendgridProvider })).status).toBe(201);
    const older = await sendThroughDefault(api);
    await sendThroughDefault(api);
    await sendThroughDefault(api);
    await sendThroughDefault(other.api);
    // One of them sent two days ago, as the log would hold it.
    await ctx.svc.deps
      .db('email_logs')
      .where({ id: older.id, project_id: project.projectId })
      .update({
        sent_at: new Date(Date.now() - 2 * DAY_MS),
      });

    const res = await api.get(`/v1/stats/daily?from=${dayOf(-2)}&to=${dayOf(0)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: dayOf(-2),
      to: dayOf(0),
      days: [
        { day: dayOf(-2), total: 1, sent: 1, delivered: 0, bounced: 0, failed: 0, suppressed: 0 },
        { day: dayOf(0), total: 2, sent: 2, delivered: 0, bounced: 0, failed: 0, suppressed: 0 },
      ],
    });
    expect((await api.get(`/v1/stats/daily?from=${dayOf(-1)}`)).body.days).toEqual([
      expect.objectContaining({ day: dayOf(0), total: 2 }),
    ]);
    expect((await other.api.get('/v1/stats/daily')).body.days).toEqual([expect.objectContaining({ total: 1 })]);
  });

  it('when the range is not a span of real days of at most 366, then it is 400; without keys 401', async () => {
    const { api } = await ctx.freshProject();
    for (const query of [`from=${dayOf(0)}&to=${dayOf(-1)}`, `from=${dayOf(-400)}`, 'to=2026-13-01', 'from=today']) {
      const res = await api.get(`/v1/stats/daily?${query}`);
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    expect((await mailerClient(ctx.svc.app).get('/v1/stats/daily')).status).toBe(401);
  });
});
