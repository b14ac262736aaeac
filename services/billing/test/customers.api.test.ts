import type { ApiClient } from '@platform/testkit';
import { configuredProject, startBilling, type BillingTest } from './support/billing-test-service';

let t: BillingTest;
let call: ApiClient['call'];

beforeAll(async () => {
  t = await startBilling();
  call = t.api.call;
});
afterAll(() => t.close());

describe('customers', () => {
  it('when a customer is created, then it comes back in Stripe shape with our tenant tags', async () => {
    const { project } = await configuredProject(t);
    const res = await call('post', '/pay/customers', {
      headers: project.headers,
      body: {
        email: 'ada@example.com',
        name: 'Ada',
        description: 'VIP',
        phone: '+4912345',
        metadata: { plan: 'pro', seats: 3 },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^cus_/),
      object: 'customer',
      email: 'ada@example.com',
      name: 'Ada',
      description: 'VIP',
      phone: '+4912345',
      metadata: { plan: 'pro', seats: '3', tenantId: project.tenantId, projectId: project.projectId },
      created: expect.any(Number),
    });
    expect(new Date(res.body.createdAt).getTime()).toBe(res.body.created * 1000);
  });

  it('when the client sends tenantId or projectId metadata, then ours win', async () => {
    const { project } = await configuredProject(t);
    const res = await call('post', '/pay/customers', {
      headers: project.headers,
      body: { metadata: { tenantId: 'someone-else', projectId: 'other' } },
    });
    expect(res.body.metadata).toEqual({ tenantId: project.tenantId, projectId: project.projectId });
    const updated = await call('put', `/pay/customers/${res.body.id}`, {
      headers: project.headers,
      body: { metadata: { projectId: '', note: 'x' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata).toEqual({ tenantId: project.tenantId, projectId: project.projectId, note: 'x' });
  });

  it('when a customer is read, updated and deleted, then each step answers and it is gone afterwards', async () => {
    const { project } = await configuredProject(t);
    const created = await call('post', '/pay/customers', {
      headers: project.headers,
      body: { email: 'b@example.com', name: 'B' },
    });
    const id = created.body.id;
    const read = await call('get', `/pay/customers/${id}`, { headers: project.headers });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, email: 'b@example.com', name: 'B' });
    const updated = await call('put', `/pay/customers/${id}`, {
      headers: project.headers,
      body: { name: 'Bea', description: 'changed' },
    });
    expect(updated.body).toMatchObject({ id, name: 'Bea', description: 'changed', email: 'b@example.com' });
    const deleted = await call('delete', `/pay/customers/${id}`, { headers: project.headers });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, object: 'customer', deleted: true });
    expect((await call('get', `/pay/customers/${id}`, { headers: project.headers })).status).toBe(404);
    expect((await call('delete', `/pay/customers/${id}`, { headers: project.headers })).status).toBe(404);
  });

  it("when customers are listed, then only this project's come back, newest first, in pages", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const ids: string[] = [];
    for (const email of ['1@example.com', '2@example.com', '3@example.com']) {
      ids.push((await call('post', '/pay/customers', { headers: a.project.headers, body: { email } })).body.id);
    }
    await call('post', '/pay/customers', { headers: b.project.headers, body: { email: 'b@example.com' } });
    const first = await call('get', '/pay/customers?limit=2', { headers: a.project.headers });
    expect(first.status).toBe(200);
    expect(first.body.customers.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.has_more).toBe(true);
    const second = await call('get', '/pay/customers?limit=2&offset=2', { headers: a.project.headers });
    expect(second.body.customers.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(second.body.has_more).toBe(false);
  });

  it('when limit is over 100 or not a number, then 400', async () => {
    const { project } = await configuredProject(t);
    expect((await call('get', '/pay/customers?limit=101', { headers: project.headers })).status).toBe(400);
    expect((await call('get', '/pay/customers?limit=abc', { headers: project.headers })).status).toBe(400);
  });

  it("when another project's customer id is used, then 404 on read, update and delete, and nothing changes", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const own = await call('post', '/pay/customers', { headers: a.project.headers, body: { name: 'Mine' } });
    const path = `/pay/customers/${own.body.id}`;
    const before = t.stripe.requests.length;
    expect((await call('get', path, { headers: b.project.headers })).status).toBe(404);
    expect((await call('put', path, { headers: b.project.headers, body: { name: 'Stolen' } })).status).toBe(404);
    expect((await call('delete', path, { headers: b.project.headers })).status).toBe(404);
    expect(t.stripe.requests.length).toBe(before);
    expect((await call('get', path, { headers: a.project.headers })).body.name).toBe('Mine');
  });

  it("when a customer exists in Stripe with another project's tags, then it is 404 even with a local record", async () => {
    const { project } = await configuredProject(t);
    const created = await call('post', '/pay/customers', { headers: project.headers, body: {} });
    t.stripe.objects.get(created.body.id)!.metadata.projectId = 'another-project';
    expect((await call('get', `/pay/customers/${created.body.id}`, { headers: project.headers })).status).toBe(404);
  });

  it('when a test-mode customer is asked for in live mode, then 404', async () => {
    const { project, secretKey } = await configuredProject(t);
    await call('put', '/pay/config', { headers: project.headers, body: { environment: 'live', secretKey } });
    const created = await call('post', '/pay/customers', { headers: project.headers, body: {} });
    expect(
      (await call('get', `/pay/customers/${created.body.id}?environment=live`, { headers: project.headers })).status,
    ).toBe(404);
  });

  it('when the body is invalid, then 400', async () => {
    const { project } = await configuredProject(t);
    expect(
      (await call('post', '/pay/customers', { headers: project.headers, body: { email: 'not-an-email' } })).status,
    ).toBe(400);
    expect((await call('post', '/pay/customers', { headers: project.headers, body: { metadata: 'x' } })).status).toBe(
      400,
    );
    const created = await call('post', '/pay/customers', { headers: project.headers, body: {} });
    expect(
      (await call('put', `/pay/customers/${created.body.id}`, { headers: project.headers, body: {} })).status,
    ).toBe(400);
  });

  it('when the keys are missing, then 401', async () => {
    expect((await call('get', '/pay/customers')).status).toBe(401);
    expect((await call('post', '/stripe/customers', { body: {} })).status).toBe(401);
  });
});

describe('customer rate limits', () => {
  let limited: BillingTest;
  let limitedCall: ApiClient['call'];

  beforeAll(async () => {
    limited = await startBilling({ BILLING_CUSTOMER_CREATE_LIMIT: '2', BILLING_CUSTOMER_QUERY_LIMIT: '3' });
    limitedCall = limited.api.call;
  });
  afterAll(() => limited.close());

  it('when creates pass the limit, then 429 RATE_LIMITED with Retry-After, counted per project and environment', async () => {
    const { project, secretKey } = await configuredProject(limited);
    const other = await configuredProject(limited);
    for (let i = 0; i < 2; i++)
      expect((await limitedCall('post', '/pay/customers', { headers: project.headers, body: {} })).status).toBe(201);
    const res = await limitedCall('post', '/pay/customers', { headers: project.headers, body: {} });
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await limitedCall('post', '/pay/customers', { headers: other.project.headers, body: {} })).status).toBe(
      201,
    );
    await limitedCall('put', '/pay/config', { headers: project.headers, body: { environment: 'live', secretKey } });
    expect(
      (await limitedCall('post', '/pay/customers?environment=live', { headers: project.headers, body: {} })).status,
    ).toBe(201);
  });

  it('when queries pass the limit, then 429 with Retry-After', async () => {
    const { project } = await configuredProject(limited);
    for (let i = 0; i < 3; i++)
      expect((await limitedCall('get', '/pay/customers', { headers: project.headers })).status).toBe(200);
    const res = await limitedCall('get', '/pay/customers/cus_any', { headers: project.headers });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});
