import { waitFor, type TestService } from '@platform/testkit';
import type { CmsShared } from '../src/cms-shared';
import { startCms, type Client } from './support/cms-test-service';

let svc: TestService<CmsShared>;
let freshClient: () => Promise<Client>;

// A small budget keeps the refusals quick; the slow patterns below take hundreds of
// milliseconds or more to compile on this hardware, a normal one well under a millisecond.
beforeAll(async () => {
  ({ svc, freshClient } = await startCms({ CMS_PATTERN_COMPILE_BUDGET_MS: '50' }));
});

afterAll(async () => {
  await svc.close();
});

/** RE2 compiles a bounded repetition of a class as that many copies: slow, short, and valid. */
const SLOW = '^[a-z]{1,1000}$';
const NORMAL = '^[a-z]+-[0-9]+$';

const codeSchema = (pattern: string) => ({
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern } },
});

const createCustom = (client: Client, contentType: string, content: unknown) =>
  client.post('/v1/content', { body: { type: 'custom', contentType, title: 'T', content: JSON.stringify(content) } });

const typeNames = async (client: Client) =>
  (await client.get('/v1/content-types')).body.contentTypes.map((t: { name: string }) => t.name);

describe('the compile budget of schema patterns', () => {
  it('when a pattern does not compile within the budget, then 400 naming its path, and the type is not created', async () => {
    const client = await freshClient();
    const res = await client.post('/v1/content-types', { body: { name: 'sku', schema: codeSchema(SLOW) } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([
      { path: 'schema.properties.code.pattern', message: expect.stringMatching(/too complex to compile.*50 ms/) },
    ]);
    expect(await typeNames(client)).toEqual([]);
    // Not created: the name is still free, and a fresh thread checks the next schema.
    expect((await client.post('/v1/content-types', { body: { name: 'sku', schema: codeSchema(NORMAL) } })).status).toBe(
      201,
    );
  });

  it('when a patternProperties name is over the budget, then the path ends with that name', async () => {
    const client = await freshClient();
    const schema = { type: 'object', patternProperties: { '^x-': { type: 'string' }, [SLOW]: { type: 'number' } } };
    const res = await client.post('/v1/content-types', { body: { name: 'headers', schema } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([`schema.patternProperties.${SLOW}`]);
  });

  it('when a pattern is only reachable through $ref into data, then it is checked all the same', async () => {
    const client = await freshClient();
    const schema = { definitions: { sample: { const: { pattern: SLOW } } }, $ref: '#/definitions/sample/const' };
    const res = await client.post('/v1/content-types', { body: { name: 'sneaky', schema } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      'schema.definitions.sample.const.pattern',
    ]);
  });

  it('when a pattern compiles within the budget, then the type is created and content is validated with it', async () => {
    const client = await freshClient();
    expect((await client.post('/v1/content-types', { body: { name: 'sku', schema: codeSchema(NORMAL) } })).status).toBe(
      201,
    );
    expect((await createCustom(client, 'sku', { code: 'abc-123' })).status).toBe(201);
    const bad = await createCustom(client, 'sku', { code: 'abc-x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(['content.code']);
  });

  it('when a changed schema has a pattern over the budget, then 400 and the stored schema stays in force', async () => {
    const client = await freshClient();
    const created = await client.post('/v1/content-types', { body: { name: 'sku', schema: codeSchema(NORMAL) } });
    const res = await client.put(`/v1/content-types/${created.body.id}`, { body: { schema: codeSchema(SLOW) } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['schema.properties.code.pattern']);
    expect((await client.get(`/v1/content-types/${created.body.id}`)).body.schema).toEqual(codeSchema(NORMAL));
    expect((await createCustom(client, 'sku', { code: 'abc' })).status).toBe(400);
  });

  it('when a pattern is invalid for RE2, then 400 on schema with RE2 message, as before', async () => {
    const client = await freshClient();
    const res = await client.post('/v1/content-types', { body: { name: 'look', schema: codeSchema('^(?=a)a+$') } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'schema', message: expect.stringMatching(/^Invalid regular expression: .*invalid perl operator/) },
    ]);
  });

  it('when a pattern is longer than 1,000 characters, then 400 naming its path', async () => {
    const client = await freshClient();
    const res = await client.post('/v1/content-types', {
      body: { name: 'long', schema: codeSchema(`^${'a'.repeat(1_000)}$`) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: 'schema.properties.code.pattern', message: 'pattern is longer than 1000 characters' },
    ]);
  });

  it('when a slow and a normal schema are sent together, then the slow one is refused and the normal one created', async () => {
    const client = await freshClient();
    const [slow, normal] = await Promise.all([
      client.post('/v1/content-types', { body: { name: 'slow', schema: codeSchema(SLOW) } }),
      client.post('/v1/content-types', { body: { name: 'normal', schema: codeSchema(NORMAL) } }),
    ]);
    expect(slow.status).toBe(400);
    expect(normal.status).toBe(201);
    expect(await typeNames(client)).toEqual(['normal']);
  });
});

describe('while a slow pattern is being checked', () => {
  let roomy: TestService<CmsShared>;
  let tenant: Client;
  let other: Client;

  // A budget long enough for another request to be served in it (an ordering, not a timing,
  // is asserted), and a pattern many times slower than that budget.
  const VERY_SLOW = `^${'[a-z]{1,1000}[0-9]{1,1000}'.repeat(10)}$`;

  beforeAll(async () => {
    const started = await startCms({ CMS_PATTERN_COMPILE_BUDGET_MS: '1000' });
    roomy = started.svc;
    tenant = started.api;
    other = await started.freshClient();
    // Starts the thread, so that what follows waits on the compile, not on the thread's start.
    expect(
      (await tenant.post('/v1/content-types', { body: { name: 'warm', schema: codeSchema(NORMAL) } })).status,
    ).toBe(201);
  });

  afterAll(async () => {
    await roomy.close();
  });

  it('when another project reads its content meanwhile, then it is answered before the slow create', async () => {
    const checker = roomy.parts.shared.patternChecker;
    const answered: string[] = [];
    const creating = tenant
      .post('/v1/content-types', { body: { name: 'slow', schema: codeSchema(VERY_SLOW) } })
      .then((res) => {
        answered.push('create');
        return res;
      });
    await waitFor(() => checker.busy, { intervalMs: 1 });
    const read = await other.get('/v1/content');
    answered.push('read');
    expect(read.status).toBe(200);
    expect((await creating).status).toBe(400);
    expect(answered).toEqual(['read', 'create']);
  });
});

describe('stopping the service', () => {
  it('when the stop function of its background work runs, then the pattern checker is closed and schemas with patterns get 503', async () => {
    const { svc: stopping, api } = await startCms({ CMS_PATTERN_COMPILE_BUDGET_MS: '50' });
    try {
      const stop = await stopping.startJobs();
      expect(
        (await api.post('/v1/content-types', { body: { name: 'before', schema: codeSchema(NORMAL) } })).status,
      ).toBe(201);
      await stop();
      const res = await api.post('/v1/content-types', { body: { name: 'after', schema: codeSchema(NORMAL) } });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await stopping.close();
    }
  });
});
