import { useMailerService } from './support/mailer-test-service';

const ctx = useMailerService();

const sendgrid = { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k', fromEmail: 'app@example.com' } };

const recipientsOf = (requests: typeof ctx.sendgrid.requests, from: number) =>
  requests
    .slice(from)
    .map((r) => (r.body as { personalizations: { to: { email: string }[] }[] }).personalizations[0].to[0].email);

describe('suppression list', () => {
  it('when an address is added by hand, then it is listed lowercased with reason manual and can be removed', async () => {
    const { api } = await ctx.freshProject();
    const added = await api.post('/v1/suppressions', { body: { email: 'Ann@Example.COM' } });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      email: 'ann@example.com',
      scope: 'all',
      reason: 'manual',
      providerEvent: null,
      providerId: null,
      createdAt: expect.any(String),
    });
    expect((await api.get('/v1/suppressions')).body).toMatchObject({
      total: 1,
      suppressions: [{ email: 'ann@example.com' }],
    });
    expect((await api.delete('/v1/suppressions/ANN@example.com')).status).toBe(204);
    expect((await api.get('/v1/suppressions')).body.total).toBe(0);
    expect((await api.delete('/v1/suppressions/ann@example.com')).status).toBe(404);
  });

  it('when the list is filtered by reason and paged, then only that reason comes back, a page at a time', async () => {
    const { api } = await ctx.freshProject();
    for (const n of [1, 2, 3])
      await api.post('/v1/suppressions', { body: { email: `c${n}@example.com`, reason: 'complaint' } });
    await api.post('/v1/suppressions', { body: { email: 'm@example.com' } });
    const page = await api.get('/v1/suppressions?reason=complaint&limit=2&offset=0');
    expect(page.body.total).toBe(3);
    expect(page.body.suppressions).toHaveLength(2);
    const rest = await api.get('/v1/suppressions?reason=complaint&limit=2&offset=2');
    expect(rest.body.suppressions).toHaveLength(1);
    const all = [...page.body.suppressions, ...rest.body.suppressions].map((s: { email: string }) => s.email);
    expect(all.sort()).toEqual(['c1@example.com', 'c2@example.com', 'c3@example.com']);
    expect((await api.get('/v1/suppressions?reason=nonsense')).status).toBe(400);
    expect((await api.get('/v1/suppressions?limit=500')).status).toBe(400);
  });

  it('when the input is bad, then 400 and nothing is stored', async () => {
    const { api } = await ctx.freshProject();
    for (const body of [
      {},
      { email: 'not-an-email' },
      { email: 'a@example.com', reason: '__proto__' },
      { email: 'a@example.com', scope: 'x' },
    ]) {
      expect((await api.post('/v1/suppressions', { body: body })).status).toBe(400);
    }
    expect((await api.delete('/v1/suppressions/not-an-email')).status).toBe(400);
    expect((await api.get('/v1/suppressions')).body.total).toBe(0);
  });

  it('when another project suppresses an address, then this project neither sees the entry nor can remove it, and still mails the address', async () => {
    const { api } = await ctx.freshProject();
    const { api: other } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgrid });
    await other.post('/v1/suppressions', { body: { email: 'shared@example.com' } });
    expect((await api.get('/v1/suppressions')).body.total).toBe(0);
    expect((await api.delete('/v1/suppressions/shared@example.com')).status).toBe(404);
    expect((await other.get('/v1/suppressions')).body.total).toBe(1);
    const sent = await api.post('/v1/emails/send', { body: { to: 'shared@example.com', subject: 's', html: 'h' } });
    expect(sent.body.status).toBe('sent');
  });

  it('when one recipient of a send is suppressed (in another case), then only the others reach the provider and the suppressed one is reported and logged with its reason', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgrid });
    await api.post('/v1/suppressions', { body: { email: 'gone@example.com', reason: 'bounce' } });
    const before = ctx.sendgrid.requests.length;
    const res = await api.post('/v1/emails/send', {
      body: {
        to: ['a@example.com', 'Gone@Example.com', 'b@example.com', 'A@example.com'],
        subject: 'News',
        html: '<p>hi</p>',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.recipients).toEqual([
      { to: 'a@example.com', messageId: expect.any(String), status: 'sent', providerId: expect.any(String) },
      {
        to: 'Gone@Example.com',
        messageId: expect.any(String),
        status: 'suppressed',
        providerId: null,
        reason: 'bounce',
      },
      { to: 'b@example.com', messageId: expect.any(String), status: 'sent', providerId: expect.any(String) },
    ]);
    expect(recipientsOf(ctx.sendgrid.requests, before).sort()).toEqual(['a@example.com', 'b@example.com']);
    const logs = (await api.get('/v1/logs?status=suppressed')).body.logs;
    expect(logs).toEqual([
      expect.objectContaining({
        to: 'Gone@Example.com',
        status: 'suppressed',
        suppressionReason: 'bounce',
        provider: 'none',
      }),
    ]);
    expect((await api.get('/v1/stats')).body).toMatchObject({ total: 3, sent: 2, suppressed: 1 });
  });

  it('when the only recipient is suppressed, then no provider is asked and the answer says suppressed with the reason', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgrid });
    await api.post('/v1/suppressions', { body: { email: 'x@example.com', reason: 'complaint' } });
    const before = ctx.sendgrid.requests.length;
    const res = await api.post('/v1/emails/send', { body: { to: 'X@example.com', subject: 's', html: 'h' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'suppressed', reason: 'complaint', to: 'X@example.com' });
    expect(ctx.sendgrid.requests.length).toBe(before);
  });

  it('when an address is suppressed for marketing only, then transactional mail still reaches it and marketing mail does not', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgrid });
    await api.post('/v1/suppressions', {
      body: { email: 'reader@example.com', reason: 'unsubscribe', scope: 'marketing' },
    });
    const transactional = await api.post('/v1/emails/send', {
      body: { to: 'reader@example.com', subject: 's', html: 'h' },
    });
    expect(transactional.body.status).toBe('sent');
    const marketing = await api.post('/v1/emails/send', {
      body: {
        to: 'reader@example.com',
        subject: 's',
        html: 'h',
        category: 'marketing',
      },
    });
    expect(marketing.body).toMatchObject({ status: 'suppressed', reason: 'unsubscribe' });
    // A bounce later widens the entry to all mail.
    await api.post('/v1/suppressions', { body: { email: 'reader@example.com', reason: 'bounce' } });
    expect((await api.get('/v1/suppressions')).body.suppressions[0]).toMatchObject({ scope: 'all', reason: 'bounce' });
    const after = await api.post('/v1/emails/send', { body: { to: 'reader@example.com', subject: 's', html: 'h' } });
    expect(after.body.status).toBe('suppressed');
  });

  it('when a send names more recipients than allowed or a bad one among them, then 400 and nothing is sent', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', { body: sendgrid });
    const before = ctx.sendgrid.requests.length;
    const many = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
    expect((await api.post('/v1/emails/send', { body: { to: many, subject: 's', html: 'h' } })).status).toBe(400);
    expect(
      (await api.post('/v1/emails/send', { body: { to: ['ok@example.com', 'nope'], subject: 's', html: 'h' } })).status,
    ).toBe(400);
    expect((await api.post('/v1/emails/send', { body: { to: [], subject: 's', html: 'h' } })).status).toBe(400);
    expect(ctx.sendgrid.requests.length).toBe(before);
  });
});
