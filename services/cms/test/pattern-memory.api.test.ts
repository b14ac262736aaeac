import type { TestService } from '@platform/testkit';
import { startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let freshClient: () => Promise<Client>;

// The compile and validation budgets out of the way: these tests are about RE2's heap
// (pattern-budget.api.test.ts and the validation budget tests cover the budgets).
beforeAll(async () => {
  ({ svc, freshClient } = await startCms({
    CMS_PATTERN_COMPILE_BUDGET_MS: '10000',
    CMS_VALIDATION_BUDGET_MS: '10000',
  }));
});

afterAll(async () => {
  await svc.close();
});

const createCustom = (client: Client, contentType: string, content: unknown) =>
  client.post('/v1/content', { body: { type: 'custom', contentType, title: 'T', content: JSON.stringify(content) } });

const codeSchema = (pattern: string) => ({
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern } },
});

/** Library internals that must never reach a tenant. */
const internalText = /abort|enlarge memory|INITIAL_MEMORY|emscripten|RuntimeError/i;

/** Another project can still define a pattern, and content is checked against it. */
async function expectPatternsWorkForAnotherProject(): Promise<void> {
  const other = await freshClient();
  expect(
    (await other.post('/v1/content-types', { body: { name: 'sku', schema: codeSchema('^[a-z]+-[0-9]+$') } })).status,
  ).toBe(201);
  expect((await createCustom(other, 'sku', { code: 'abc-123' })).status).toBe(201);
  const bad = await createCustom(other, 'sku', { code: 'abc-x' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(['content.code']);
}

describe('pattern compilation shared by every project', () => {
  it('when a pattern needs more memory than RE2 has, then 400 with a short message and other projects keep working', async () => {
    const tenant = await freshClient();
    const res = await tenant.post('/v1/content-types', {
      body: { name: 'huge', schema: codeSchema('^\\p{L}{1,100}$') },
    });
    expect(res.status).toBe(400);
    const [detail] = res.body.error.details;
    expect(detail.path).toBe('schema');
    expect(detail.message).toMatch(/pattern needs too much memory/);
    expect(detail.message.length).toBeLessThan(200);
    expect(JSON.stringify(res.body)).not.toMatch(internalText);
    await expectPatternsWorkForAnotherProject();
  });

  it("when one project's validators hold many heavy patterns, then its types still validate and other projects' patterns still work", async () => {
    const tenant = await freshClient();
    // Short (the length cap is 1,000) but compiled as 10,000 characters: about 1 MB of RE2 heap per copy.
    const heavy = '(?:abcdefghij){1000}';
    const matching = 'abcdefghij'.repeat(1_000);
    // Each type's validator stays cached on the validation threads (and so its regex stays alive).
    for (let types = 0; types < 40; types += 1) {
      const name = `heavy${types}`;
      expect(
        (await tenant.post('/v1/content-types', { body: { name, schema: codeSchema(`^${heavy}${types}$`) } })).status,
      ).toBe(201);
      expect((await createCustom(tenant, name, { code: `${matching}${types}` })).status).toBe(201);
    }

    expect((await createCustom(tenant, 'heavy0', { code: `${matching}0` })).status).toBe(201);
    expect((await createCustom(tenant, 'heavy0', { code: 'abcdefghij' })).status).toBe(400);
    await expectPatternsWorkForAnotherProject();
  }, 120_000);

  it('when a pattern uses lookahead, then 400 on schema naming the RE2 syntax error, without library internals', async () => {
    const tenant = await freshClient();
    const res = await tenant.post('/v1/content-types', { body: { name: 'look', schema: codeSchema('^(?=a)a+$') } });
    expect(res.status).toBe(400);
    const [detail] = res.body.error.details;
    expect(detail.path).toBe('schema');
    expect(detail.message).toMatch(/^Invalid regular expression: .*invalid perl operator: \(\?=$/);
    expect(JSON.stringify(res.body)).not.toMatch(internalText);
  });
});
