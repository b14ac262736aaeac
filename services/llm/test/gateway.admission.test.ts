import type { TestProject } from '@platform/testkit';
import { waitFor } from '@platform/testkit';
import { hello, listen, type Listening } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let server: Listening;

beforeAll(async () => {
  llm = await startLlmTestService({
    // One project may hold all the streams here: the admission is what is under test.
    llmEnv: { LLM_GATEWAY_MAX_STREAMS: '2000', LLM_GATEWAY_MAX_STREAMS_PER_PROJECT: '1500' },
  });
  // One client opens the whole burst at once: over the default cap of connections per address.
  server = await listen(llm.svc.app, { maxConnectionsPerAddress: 2000 });
});

afterAll(async () => {
  await server.close();
  await llm.close();
});

/** The knex pool (tarn) as far as the test reads it. */
interface Pool {
  max: number;
  numUsed(): number;
  numPendingAcquires(): number;
}

/** A streamed request over a real socket, read to its end. */
async function stream(project: TestProject) {
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { ...project.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: hello, stream: true, max_tokens: 16 }),
  });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text };
}

describe('admission under a burst', () => {
  it('when one project opens 1,000 streams at once on a pool of 10 connections, then each gets its answer or a 429 RATE_LIMITED, none a 5xx, and another project’s request at the same time succeeds', async () => {
    const busy = await llm.projectWithVendors();
    const other = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: busy.headers, body: { requestsPerMinute: 600 } });
    const { pool } = llm.svc.deps.db.client as { pool: Pool };
    expect(pool.max).toBe(10);
    let demand = 0;
    const sampler = setInterval(() => (demand = Math.max(demand, pool.numUsed() + pool.numPendingAcquires())), 2);
    const minuteBefore = new Date().getUTCMinutes();
    const burst = Array.from({ length: 1000 }, () => stream(busy));
    const [answers, alongside] = await Promise.all([Promise.all(burst), stream(other)]);
    const minuteAfter = new Date().getUTCMinutes();
    clearInterval(sampler);

    // The burst never wanted the whole pool: its requests wait for admission in memory, not for connections.
    expect(demand).toBeGreaterThan(0);
    expect(demand).toBeLessThan(pool.max);

    expect(alongside.status).toBe(200);
    expect(alongside.text).toContain('data: [DONE]');
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const ok = answers.filter((a) => a.status === 200);
    ok.forEach((a) => expect(a.text).toContain('data: [DONE]'));
    const limited = answers.filter((a) => a.status === 429);
    limited.forEach((a) => {
      expect(JSON.parse(a.text).error).toMatchObject({ code: 'RATE_LIMITED', type: 'rate_limit_error' });
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    });
    // Admitted in groups, yet exactly as many as the limit allows (a new minute would open a new window).
    if (minuteBefore === minuteAfter) expect(ok.length).toBe(600);
    else expect(ok.length).toBeGreaterThanOrEqual(600);
  }, 60_000);
});

describe('the reservation of a request that names no fallbacks', () => {
  const slow = { model: 'gpt-4o-mini-delay-1500', messages: hello, max_tokens: 100 };

  async function reservedWhileInFlight(project: TestProject, body: object): Promise<number> {
    const pending = llm.api.post('/v1/chat/completions', { headers: project.headers, body: body });
    // Admitted once the vendor has it; the answer comes 1.5 s later.
    await waitFor(() => llm.openai.load.inFlight > 0, { timeoutMs: 1_400, intervalMs: 10 });
    const reserved = (await llm.api.get('/v1/limits', { headers: project.headers })).body.reservedUsd as number;
    expect((await pending).status).toBe(200);
    return reserved;
  }

  it('when the project has default fallbacks, then the request reserves its worst case on them, as if it had named them', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/fallbacks', { headers: project.headers, body: { fallbacks: ['claude-opus-4-1'] } });
    const withDefaults = await reservedWhileInFlight(project, slow);
    // 100 output tokens of claude-opus-4-1 alone cost 0.0075 USD; the model itself has no price.
    expect(withDefaults).toBeGreaterThanOrEqual(0.0075);

    const named = await llm.projectWithVendors();
    const withNamed = await reservedWhileInFlight(named, { ...slow, fallbacks: ['claude-opus-4-1'] });
    expect(withDefaults).toBe(withNamed);
  });
});
