import type { TestService } from '@platform/testkit';
import { startCms, type Client } from './support/cms-test-service';

let svc: TestService;
let noisy: Client;
let quiet: Client;

// One validation thread, so that the order in which answers arrive shows whose turn it was.
beforeAll(async () => {
  let freshClient: () => Promise<Client>;
  ({
    svc,
    api: noisy,
    freshClient,
  } = await startCms({
    CMS_VALIDATION_THREADS: '1',
    CMS_VALIDATION_BUDGET_MS: '1000',
    // The time budget is under test: the blow-ups below also allocate as they run, and on a fast
    // machine they reached the default 64 MB before the second. The memory budget has tests of its own.
    CMS_VALIDATION_MEMORY_MB: '2048',
    // The turn order is under test here; the per-project overrun and time-share limits have
    // tests of their own (packages/runtime, the robustness sweep) and would refuse the waiting blow-ups.
    CMS_VALIDATION_MAX_OVERRUNS: '1000',
    CMS_VALIDATION_PROJECT_MS_PER_SECOND: '16000',
  }));
  quiet = await freshClient();
  const nested = { anyOf: [0, 1].map(() => ({ type: 'array', items: { $ref: '#/definitions/n' } })) };
  const created = await noisy.post('/v1/content-types', {
    body: {
      name: 'nested',
      schema: { definitions: { n: nested }, $ref: '#/definitions/n' },
    },
  });
  expect(created.status).toBe(201);
  expect((await quiet.post('/v1/content-types', { body: { name: 'note', schema: { type: 'object' } } })).status).toBe(
    201,
  );
});

afterAll(async () => {
  await svc.close();
});

/** An array nested `depth` deep around a string, which no branch accepts: the errors double at each level. */
const nestedArray = (depth: number) =>
  JSON.stringify(Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 'x'));

const createNested = (depth: number) =>
  noisy.post('/v1/content', {
    body: {
      type: 'custom',
      contentType: 'nested',
      title: `depth ${depth}`,
      content: nestedArray(depth),
    },
  });

describe('content validation budget', () => {
  it('when content has thousands of schema errors, then 400 lists only the first 50 and says how many there were', async () => {
    const res = await createNested(10);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toHaveLength(50);
    expect(res.body.error.message).toMatch(/first 50 of \d{4,} problems/);
  });

  it('when validating content takes longer than the budget, then 400 names the time budget and nothing is stored', async () => {
    const res = await createNested(24);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/time budget/);
    expect(res.body.error.details[0]).toEqual({ path: 'content', message: expect.stringMatching(/1000 ms/) });
    expect((await noisy.get('/v1/content')).body.content).toHaveLength(0);
  });

  it("when a validation was stopped at its budget, then another project's schema patterns still check content correctly", async () => {
    const coded = { type: 'object', properties: { code: { type: 'string', pattern: '^[a-z]+$' } } };
    expect((await quiet.post('/v1/content-types', { body: { name: 'coded', schema: coded } })).status).toBe(201);
    const item = (code: string) => ({
      type: 'custom',
      contentType: 'coded',
      title: code,
      content: JSON.stringify({ code }),
    });
    expect((await quiet.post('/v1/content', { body: item('before') })).status).toBe(201);
    expect((await createNested(24)).body.error.message).toMatch(/time budget/);
    expect((await quiet.post('/v1/content', { body: item('after') })).status).toBe(201);
    const refused = await quiet.post('/v1/content', { body: item('NOT-LOWER') });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('content.code');
  });

  it('when one project keeps the validation thread busy, then another project is served at its next turn', async () => {
    const finished: string[] = [];
    const track = (who: string, reply: Promise<{ status: number }>) =>
      reply.then((res) => {
        finished.push(who);
        return res.status;
      });
    const noisyCalls = [1, 2, 3, 4, 5].map((n) => track(`noisy${n}`, createNested(24)));
    const quietCall = track(
      'quiet',
      quiet.post('/v1/content', { body: { type: 'custom', contentType: 'note', title: 'Hi', content: '{"a":1}' } }),
    );
    expect(await quietCall).toBe(201);
    expect(await Promise.all(noisyCalls)).toEqual([400, 400, 400, 400, 400]);
    // However they arrive, the quiet one waits for at most the noisy check already running.
    expect(finished.indexOf('quiet')).toBeLessThanOrEqual(1);
  });
});
