import request from 'supertest';
import { mailerClient, useMailerService, type ApiClient } from './support/mailer-test-service';
import { formFields } from './support/vendor-stubs';

const PUBLIC_URL = 'https://mail.example.net';
const ctx = useMailerService({ MAILER_PUBLIC_URL: PUBLIC_URL });

const marketing = (to: string) => ({ to, subject: 'Our news', html: '<p>news</p>', category: 'marketing' });

/** The path of a List-Unsubscribe header's URL on this service (`<https://.../v1/unsubscribe/...>`). */
function unsubscribePath(header: string): string {
  const url = /^<(.+)>$/.exec(header)?.[1];
  expect(url?.startsWith(`${PUBLIC_URL}/v1/unsubscribe/`)).toBe(true);
  return url!.slice(PUBLIC_URL.length);
}

/** RFC 8058's one-click POST, as a mailbox provider sends it: no keys, a form body. */
async function oneClick(path: string) {
  return mailerClient(ctx.svc.app).post(path, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
    offContract: 'the form body RFC 8058 prescribes; the service does not read it',
  });
}

async function sendgridProject(): Promise<ApiClient> {
  const { api } = await ctx.freshProject();
  await api.post('/v1/providers', { body: { name: 'sg', type: 'sendgrid', config: { apiKey: 'SG.k' } } });
  return api;
}

/** Sends marketing mail to `to` through SendGrid and returns the unsubscribe path it carried. */
async function marketingLinkVia(api: ApiClient, to: string): Promise<string> {
  const before = ctx.sendgrid.requests.length;
  expect((await api.post('/v1/emails/send', { body: marketing(to) })).body.status).toBe('sent');
  const headers = (ctx.sendgrid.requests[before].body as { headers: Record<string, string> }).headers;
  expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
  return unsubscribePath(headers['List-Unsubscribe']);
}

describe('one-click unsubscribe', () => {
  it('when marketing mail goes through SendGrid and the link is POSTed, then the address stops getting marketing mail but still gets transactional mail', async () => {
    const api = await sendgridProject();
    const path = await marketingLinkVia(api, 'Reader@example.com');
    const res = await oneClick(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ unsubscribed: true, email: 'reader@example.com' });
    expect((await api.get('/v1/suppressions')).body.suppressions).toEqual([
      expect.objectContaining({ email: 'reader@example.com', scope: 'marketing', reason: 'unsubscribe' }),
    ]);
    const before = ctx.sendgrid.requests.length;
    expect((await api.post('/v1/emails/send', { body: marketing('reader@example.com') })).body).toMatchObject({
      status: 'suppressed',
      reason: 'unsubscribe',
    });
    expect(ctx.sendgrid.requests.length).toBe(before);
    const receipt = await api.post('/v1/emails/send', {
      body: { to: 'reader@example.com', subject: 'Receipt', html: 'r' },
    });
    expect(receipt.body.status).toBe('sent');
    expect(ctx.sendgrid.requests.length).toBe(before + 1);
    // Posting the link again changes nothing and still succeeds.
    expect((await oneClick(path)).status).toBe(200);
  });

  it('when marketing mail goes through Mailgun, then it carries the headers as h: fields and the link works', async () => {
    const { api } = await ctx.freshProject();
    await api.post('/v1/providers', {
      body: {
        name: 'mg',
        type: 'mailgun',
        config: { apiKey: 'key-1', domain: 'mg.example.com' },
      },
    });
    const before = ctx.mailgun.requests.length;
    await api.post('/v1/emails/send', { body: marketing('mg-reader@example.com') });
    const fields = formFields(ctx.mailgun.requests[before]);
    expect(fields['h:List-Unsubscribe-Post']).toEqual(['List-Unsubscribe=One-Click']);
    expect((await oneClick(unsubscribePath(fields['h:List-Unsubscribe'][0]))).status).toBe(200);
    expect((await api.get('/v1/suppressions')).body.total).toBe(1);
  });

  it('when transactional mail is sent, then it carries no unsubscribe headers', async () => {
    const api = await sendgridProject();
    const before = ctx.sendgrid.requests.length;
    await api.post('/v1/emails/send', { body: { to: 'a@example.com', subject: 's', html: 'h' } });
    expect((ctx.sendgrid.requests[before].body as { headers?: object }).headers).toBeUndefined();
  });

  it('when the link is opened with GET, then a page with a button is shown and nothing is unsubscribed', async () => {
    const api = await sendgridProject();
    const path = await marketingLinkVia(api, 'looker@example.com');
    const res = await mailerClient(ctx.svc.app).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('looker@example.com');
    expect(res.text).toContain('method="post"');
    expect((await api.get('/v1/suppressions')).body.total).toBe(0);
  });

  it('when the one-click POST carries a body far larger than `List-Unsubscribe=One-Click`, then 413 and nothing is unsubscribed', async () => {
    const api = await sendgridProject();
    const path = await marketingLinkVia(api, 'padded@example.com');
    const res = await request(ctx.svc.app)
      .post(path)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send(`List-Unsubscribe=One-Click&pad=${'x'.repeat(4_000)}`);
    expect(res.status).toBe(413);
    expect((await api.get('/v1/suppressions')).body.total).toBe(0);
  });

  it('when the token is tampered with, then 403 and nothing is unsubscribed', async () => {
    const api = await sendgridProject();
    const path = await marketingLinkVia(api, 'victim@example.com');
    const [payload, mac] = path.slice('/v1/unsubscribe/'.length).split('.');
    const otherAddress = Buffer.from(
      JSON.stringify([...JSON.parse(Buffer.from(payload, 'base64url').toString()).slice(0, 2), 'other@example.com']),
    ).toString('base64url');
    const flipped = mac.slice(0, -1) + (mac.endsWith('A') ? 'B' : 'A');
    for (const token of [
      `${otherAddress}.${mac}`,
      `${payload}.${flipped}`,
      payload,
      'garbage',
      `${payload}.${mac}.x`,
    ]) {
      const res = await oneClick(`/v1/unsubscribe/${token}`);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    expect((await api.get('/v1/suppressions')).body.total).toBe(0);
  });

  it('when a tampered link is opened with GET, then 403 and no page is shown', async () => {
    const api = await sendgridProject();
    const path = await marketingLinkVia(api, 'opener@example.com');
    const res = await mailerClient(ctx.svc.app).get(`${path.slice(0, -1)}${path.endsWith('A') ? 'B' : 'A'}`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it("when a token names another project, or carries another project's signature, then 403 and neither project changes", async () => {
    const api = await sendgridProject();
    const other = await sendgridProject();
    const mine = (await marketingLinkVia(api, 'x@example.com')).slice('/v1/unsubscribe/'.length).split('.');
    const theirs = (await marketingLinkVia(other, 'x@example.com')).slice('/v1/unsubscribe/'.length).split('.');
    // Their address and project, signed with this project's secret.
    expect((await oneClick(`/v1/unsubscribe/${theirs[0]}.${mine[1]}`)).status).toBe(403);
    expect((await api.get('/v1/suppressions')).body.total).toBe(0);
    expect((await other.get('/v1/suppressions')).body.total).toBe(0);
  });
});
