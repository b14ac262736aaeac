import { randomBytes } from 'node:crypto';
import type { ApiClient, TestProject } from '@platform/testkit';
import { configuredProject, startBilling, type BillingTest } from './support/billing-test-service';

let t: BillingTest;
let call: ApiClient['call'];

beforeAll(async () => {
  t = await startBilling();
  call = t.api.call;
});
afterAll(() => t.close());

type Customer = { id: string };

/** The stand-in's requests made while `run` ran, split into customer lists and single reads. */
async function stripeCallsOf<T>(run: () => Promise<T>): Promise<{ result: T; lists: number; retrieves: number }> {
  const before = t.stripe.requests.length;
  const result = await run();
  const made = t.stripe.requests.slice(before);
  return {
    result,
    lists: made.filter((r) => r.method === 'GET' && /^\/v1\/customers(\?|$)/.test(r.path)).length,
    retrieves: made.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/customers/')).length,
  };
}

const createCustomer = async (project: TestProject) =>
  (
    await call('post', '/pay/customers', {
      headers: project.headers,
      body: { email: `${randomBytes(4).toString('hex')}@example.com`, name: 'N', metadata: { n: '1' } },
    })
  ).body as Customer;

/** Each customer as GET /pay/customers/{id} answers it: one Stripe read each, as the list used to do. */
const readOneByOne = async (project: TestProject, ids: string[]) =>
  Promise.all(ids.map(async (id) => (await call('get', `/pay/customers/${id}`, { headers: project.headers })).body));

const list = (project: TestProject, query: string) =>
  stripeCallsOf(() => call('get', `/pay/customers?${query}`, { headers: project.headers }));

describe('listing customers', () => {
  it("when a page of 40 customers is listed, then it costs one Stripe call, holds the same data as reading each one, and only this project's", async () => {
    const a = await configuredProject(t);
    const b = await configuredProject(t);
    const mine: string[] = [];
    const theirs: string[] = [];
    // Both projects' customers in one Stripe account, interleaved in time.
    for (let i = 0; i < 40; i++) {
      mine.push((await createCustomer(a.project)).id);
      theirs.push((await createCustomer(b.project)).id);
    }
    const newestFirst = [...mine].reverse();
    const expected = await readOneByOne(a.project, newestFirst);

    const page = await list(a.project, 'limit=40');
    expect(page.result.status).toBe(200);
    expect(page.result.body).toEqual({ object: 'list', customers: expected, data: expected, has_more: false });
    expect(page).toMatchObject({ lists: 1, retrieves: 0 });

    const other = await list(b.project, 'limit=100');
    expect(other.result.body.customers.map((c: Customer) => c.id)).toEqual([...theirs].reverse());
    expect(other).toMatchObject({ lists: 1, retrieves: 0 });
  });

  it('when a later page is asked, then it is the same slice in the same order, still for one call', async () => {
    const { project } = await configuredProject(t);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await createCustomer(project)).id);
    const newestFirst = [...ids].reverse();

    const page = await list(project, 'limit=12&offset=12');
    expect(page.result.body.customers).toEqual(await readOneByOne(project, newestFirst.slice(12, 24)));
    expect(page.result.body.has_more).toBe(true);
    expect(page).toMatchObject({ lists: 1, retrieves: 0 });

    const last = await list(project, 'limit=12&offset=24');
    expect(last.result.body.customers.map((c: Customer) => c.id)).toEqual(newestFirst.slice(24));
    expect(last.result.body.has_more).toBe(false);
  });

  it('when the project has no customers, then Stripe is not called', async () => {
    const { project } = await configuredProject(t);
    const page = await list(project, 'limit=10');
    expect(page.result.body).toEqual({ object: 'list', customers: [], data: [], has_more: false });
    expect(page).toMatchObject({ lists: 0, retrieves: 0 });
  });

  it('when a customer was deleted in Stripe or lost our tags there, then it is left out as before', async () => {
    const { project } = await configuredProject(t);
    const [kept, deleted, retagged] = [
      await createCustomer(project),
      await createCustomer(project),
      await createCustomer(project),
    ];
    // Changed in Stripe's dashboard, not through us: our records still name them.
    t.stripe.put({ id: deleted.id, object: 'customer', deleted: true });
    t.stripe.objects.get(retagged.id)!.metadata.projectId = 'another-project';

    const page = await list(project, 'limit=10');
    expect(page.result.body.customers.map((c: Customer) => c.id)).toEqual([kept.id]);
    // Stripe's list leaves deleted customers out, so that one is confirmed by a read of its own
    // (after at most two list pages: earlier tests' customers share the span).
    expect(page.retrieves).toBe(1);
    expect(page.lists).toBeLessThanOrEqual(2);
  });

  it("when a customer's Stripe creation time lies outside its record's span, then it is still listed, read on its own", async () => {
    const { project } = await configuredProject(t);
    const ids = [(await createCustomer(project)).id, (await createCustomer(project)).id];
    t.stripe.objects.get(ids[0])!.created -= 3_600;

    const page = await list(project, 'limit=10');
    expect(page.result.body.customers).toEqual(await readOneByOne(project, [ids[1], ids[0]]));
    expect(page.retrieves).toBe(1);
    expect(page.lists).toBeLessThanOrEqual(2);
  });

  // Last: the crowd it adds to the shared stand-in account would crowd the spans of later tests.
  it('when the Stripe account is crowded with customers of another system, then the calls stay bounded by two lists plus the page', async () => {
    const { project } = await configuredProject(t);
    const ids = [(await createCustomer(project)).id, (await createCustomer(project)).id];
    const created = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 250; i++) {
      t.stripe.put({ id: `cus_crowd${i}`, object: 'customer', metadata: {}, created, livemode: false });
    }

    const page = await list(project, 'limit=10');
    expect(page.result.body.customers).toEqual(await readOneByOne(project, [...ids].reverse()));
    expect(page).toMatchObject({ lists: 2, retrieves: 2 });
  });
});
