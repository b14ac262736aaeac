import { pruneIdempotencyKeys } from '../src/emails/idempotency.prune';
import { useMailerService } from './support/mailer-test-service';
import type { ApiClient } from './support/mailer-test-service';
import { DOWN_SENDGRID_KEY } from './support/vendor-stubs';

// Room for the ten concurrent duplicates below: they must meet on the key, not on the send limit.
const ctx = useMailerService({ MAILER_SENDS_PER_PROJECT: '20', MAILER_SENDS_TOTAL: '20' });

const email = { to: 'ann@example.com', subject: 'Receipt', html: '<p>Thanks</p>' };

async function projectWithSendgrid(apiKey = 'SG.ok'): Promise<ApiClient> {
  const { api } = await ctx.freshProject();
  await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey } } });
  return api;
}

const withKey = (key: string) => ({ 'Idempotency-Key': key });

describe('idempotent sends', () => {
  it('when a send is repeated with its Idempotency-Key, then the first answer comes back and nothing more is sent', async () => {
    const api = await projectWithSendgrid();
    const before = ctx.sendgrid.requests.length;
    const first = await api.post('/v1/emails/send', { body: email, headers: withKey('order-42') });
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Same request, its keys in another order.
    const again = await api.post('/v1/emails/send', {
      body: { html: email.html, subject: email.subject, to: email.to },
      headers: withKey('order-42'),
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    expect((await api.get('/v1/logs')).body.total).toBe(1);
  });

  it('when ten duplicates arrive at once, then exactly one email is sent and all get the same answer', async () => {
    const api = await projectWithSendgrid();
    const before = ctx.sendgrid.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/v1/emails/send', { body: email, headers: withKey('burst') })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.messageId)).size).toBe(1);
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    expect((await api.get('/v1/logs')).body.total).toBe(1);
  });

  it('when the same key comes with a different body, then 409 and nothing is sent', async () => {
    const api = await projectWithSendgrid();
    await api.post('/v1/emails/send', { body: email, headers: withKey('k1') });
    const before = ctx.sendgrid.requests.length;
    const res = await api.post('/v1/emails/send', { body: { ...email, subject: 'Other' }, headers: withKey('k1') });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(ctx.sendgrid.requests.length).toBe(before);
  });

  it('when another project uses the same key, then its own email is sent', async () => {
    const api = await projectWithSendgrid();
    const other = await projectWithSendgrid();
    const mine = await api.post('/v1/emails/send', { body: email, headers: withKey('shared-key') });
    const theirs = await other.post('/v1/emails/send', {
      body: { ...email, subject: 'Different' },
      headers: withKey('shared-key'),
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.messageId).not.toBe(mine.body.messageId);
    expect((await other.get('/v1/logs')).body.total).toBe(1);
  });

  it('when the first send failed, then a retry with the key sends again', async () => {
    const { api } = await ctx.freshProject();
    const provider = await api.post('/v1/providers', {
      body: {
        name: 'down',
        type: 'sendgrid',
        config: { apiKey: DOWN_SENDGRID_KEY },
      },
    });
    expect((await api.post('/v1/emails/send', { body: email, headers: withKey('retry-me') })).status).toBe(500);
    // The account recovers: a better provider is added ahead of it.
    await api.post('/v1/providers', {
      body: { name: 'ok', type: 'sendgrid', priority: 1, config: { apiKey: 'SG.ok' } },
    });
    const retry = await api.post('/v1/emails/send', { body: email, headers: withKey('retry-me') });
    expect(retry.status).toBe(200);
    expect(retry.body.recipients[0].providerId).not.toBe(provider.body.id);
  });

  it('when the key is older than 24 hours, then it is free again and the send goes out', async () => {
    const api = await projectWithSendgrid();
    const first = await api.post('/v1/emails/send', { body: email, headers: withKey('old') });
    await ctx.svc.deps
      .db('mail_idempotency_keys')
      .where({ key: 'old' })
      .update({ expires_at: ctx.svc.deps.db.raw("now() - interval '1 second'") });
    const later = await api.post('/v1/emails/send', {
      body: { ...email, subject: 'Changed' },
      headers: withKey('old'),
    });
    expect(later.status).toBe(200);
    expect(later.body.messageId).not.toBe(first.body.messageId);
  });

  it('when the key is not printable ASCII or too long, then 400 and nothing is sent', async () => {
    const api = await projectWithSendgrid();
    const before = ctx.sendgrid.requests.length;
    for (const key of ['x'.repeat(256), 'with space']) {
      expect((await api.post('/v1/emails/send', { body: email, headers: withKey(key) })).status).toBe(400);
    }
    expect(ctx.sendgrid.requests.length).toBe(before);
  });

  it('when expired keys are pruned, then only they are removed and live keys still answer', async () => {
    const api = await projectWithSendgrid();
    const live = await api.post('/v1/emails/send', { body: email, headers: withKey('live') });
    await api.post('/v1/emails/send', { body: email, headers: withKey('stale') });
    const db = ctx.svc.deps.db;
    await db('mail_idempotency_keys')
      .where({ key: 'stale' })
      .update({ expires_at: db.raw("now() - interval '1 second'") });
    expect((await pruneIdempotencyKeys(db)).removed).toBeGreaterThanOrEqual(1);
    expect(await db('mail_idempotency_keys').where({ key: 'stale' }).first()).toBeUndefined();
    const again = await api.post('/v1/emails/send', { body: email, headers: withKey('live') });
    expect(again.body.messageId).toBe(live.body.messageId);
  });
});
