import { assembleService, type AssembledService } from '@platform/runtime';
import { statementsDuring, waitFor, type ApiClient, type TestProject } from '@platform/testkit';
import { llmService, type LlmServiceShared } from '../src';
import { hello } from './support/gateway-client';
import { llmApi, startLlmTestService, type LlmTestService } from './support/llm-test-service';

/** One request of gpt-4o-mini answered by the stand-in (5 prompt tokens, 2 completion tokens). */
const REQUEST_COST_USD = 0.00000555;

let llm: LlmTestService;
const replicas: AssembledService<LlmServiceShared>[] = [];

beforeAll(async () => {
  // Leases outlive every test here unless a test asks otherwise.
  llm = await startLlmTestService({ llmEnv: { LLM_GATEWAY_LEASE_TTL_MS: '60000' } });
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await llm.close();
});

/** Another replica on the same database, with its own admissions, meters and logs. */
function replica(env: Record<string, string> = {}) {
  const built = assembleService(llmService, { ...llm.svc.deps, env: { ...llm.svc.deps.env, ...env } });
  replicas.push(built);
  return { api: llmApi(built.app), shared: built.parts.shared, close: () => built.close() };
}

/**
 * The earliest time a lease drawn after `drawnAfter` is renewed: it lives until its minute ends
 * (less a margin) and is renewed in the background after half its life.
 */
function earliestRenewal(drawnAfter: number): number {
  const minuteEnd = drawnAfter - (drawnAfter % 60_000) + 60_000;
  return drawnAfter + (minuteEnd - 100 - drawnAfter) / 2;
}

async function freshProject(limits: object = {}): Promise<TestProject> {
  const project = await llm.projectWithVendors();
  await llm.api.put('/v1/limits', { headers: project.headers, body: limits });
  return project;
}

const chat = (api: ApiClient, project: TestProject, body: object = {}) =>
  api.post('/v1/chat/completions', {
    headers: project.headers,
    body: { model: 'gpt-4o-mini', messages: hello, ...body },
  });

async function row(project: TestProject) {
  const found = await llm.svc.deps
    .db('project_limits')
    .where({ tenant_id: project.tenantId, project_id: project.projectId })
    .first('reserved_usd', 'spent_usd', 'window_requests');
  return {
    reservedUsd: Number(found.reserved_usd),
    spentUsd: Number(found.spent_usd),
    requests: found.window_requests,
  };
}

describe('admission from a lease', () => {
  it('when the project holds a lease, then its requests are admitted without a database round trip, and closing the replica gives back what the lease did not use', async () => {
    // Logs and meters written a minute late: the only statements left on a request's path are admission's.
    const quiet = replica({ LLM_LOG_FLUSH_MS: '60000', LLM_METER_FLUSH_MS: '60000' });
    const project = await freshProject({ monthlyBudgetUsd: 100, requestsPerMinute: 1000 });
    const minute = new Date().getUTCMinutes();

    const beforeDraw = Date.now();
    const first = await statementsDuring(llm.svc.deps.db, async () =>
      expect((await chat(quiet.api, project)).status).toBe(200),
    );
    expect(first.some((sql) => /for update/.test(sql))).toBe(true); // the transaction that drew the lease
    const leased = await statementsDuring(llm.svc.deps.db, async () => {
      for (let i = 0; i < 20; i++) expect((await chat(quiet.api, project)).status).toBe(200);
    });
    // A slow run that outlived half the lease may see background renewals (more near a minute's
    // end), never a draw per request.
    if (Date.now() < earliestRenewal(beforeDraw)) expect(leased).toEqual([]);
    else expect(leased.filter((sql) => /for update/.test(sql)).length).toBeLessThan(5);
    expect((await row(project)).reservedUsd).toBeGreaterThan(0);

    await quiet.close();
    const after = await row(project);
    expect(after.reservedUsd).toBe(0);
    expect(after.spentUsd).toBeCloseTo(21 * REQUEST_COST_USD, 12);
    if (new Date().getUTCMinutes() === minute) expect(after.requests).toBe(21);
  });

  it('when a lease expires unused, then its reservation and request slots are given back', async () => {
    const ttlMs = 1000;
    const shortLeases = replica({ LLM_GATEWAY_LEASE_TTL_MS: String(ttlMs) });
    const project = await freshProject({ monthlyBudgetUsd: 100, requestsPerMinute: 1000 });
    const minute = new Date().getUTCMinutes();
    const beforeDraw = Date.now();
    const answers = await Promise.all(Array.from({ length: 5 }, () => chat(shortLeases.api, project)));
    answers.forEach((answer) => expect(answer.status).toBe(200));
    await shortLeases.shared.meters.flush();
    // Every request is settled; what is still reserved is the lease's, unless a slow run has
    // already outlived it.
    const settled = await row(project);
    if (Date.now() - beforeDraw < ttlMs) expect(settled.reservedUsd).toBeGreaterThan(0);

    const released = await waitFor(async () => {
      const now = await row(project);
      return now.reservedUsd === 0 && now;
    });
    expect(released.spentUsd).toBeCloseTo(5 * REQUEST_COST_USD, 12);
    if (new Date().getUTCMinutes() === minute) expect(released.requests).toBe(5);
  });
});

/** Four waves of `size` requests at once, alternating between the replicas: how many were answered; every refusal names `refusal`. */
async function waves(apis: ApiClient[], project: TestProject, size: number, refusal: string): Promise<number> {
  let ok = 0;
  for (let wave = 0; wave < 4; wave++) {
    const answers = await Promise.all(
      Array.from({ length: size }, (_, i) => chat(apis[i % apis.length], project, { max_tokens: 7 })),
    );
    ok += answers.filter((answer) => answer.status === 200).length;
    answers
      .filter((answer) => answer.status !== 200)
      .forEach((answer) => expect(answer.body.error).toMatchObject({ code: refusal }));
  }
  return ok;
}

describe('leases across replicas', () => {
  it('when two replicas with leases take waves of requests, then together they never admit more than requestsPerMinute', async () => {
    const [a, b] = [replica(), replica()];
    const project = await freshProject({ requestsPerMinute: 30 });
    const minute = new Date().getUTCMinutes();
    const ok = await waves([a.api, b.api], project, 25, 'RATE_LIMITED');
    // A new minute opens a new window once.
    expect(ok).toBeLessThanOrEqual(new Date().getUTCMinutes() === minute ? 30 : 60);
    expect(ok).toBeGreaterThan(0);
  });

  it('when two replicas with leases spend towards the budget, then spend overshoots it by at most one request’s cost and nothing stays reserved', async () => {
    const [a, b] = [replica(), replica()];
    const budget = 0.0001; // some 18 requests
    const project = await freshProject({ monthlyBudgetUsd: budget });
    const ok = await waves([a.api, b.api], project, 15, 'BUDGET_EXCEEDED');
    for (const { shared } of [a, b]) {
      await shared.admissions.returnLeases();
      await shared.meters.flush();
    }
    const after = await row(project);
    expect(ok).toBeGreaterThan(0);
    expect(after.spentUsd).toBeLessThanOrEqual(budget + REQUEST_COST_USD + 1e-12);
    expect(after.spentUsd).toBeCloseTo(ok * REQUEST_COST_USD, 12);
    expect(after.reservedUsd).toBe(0);
  });
});

describe('limits changed while a lease is held', () => {
  it('when PUT /v1/limits lowers the budget, then the next request on the same replica is refused at once', async () => {
    const project = await freshProject();
    expect((await chat(llm.api, project)).status).toBe(200);
    expect((await chat(llm.api, project)).status).toBe(200); // from the lease, which would last a minute
    await llm.api.put('/v1/limits', { headers: project.headers, body: { monthlyBudgetUsd: 0 } });
    const refused = await chat(llm.api, project);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('BUDGET_EXCEEDED');
  });

  it('when PUT /v1/fallbacks changes the defaults, then the next request on the same replica falls back to the new ones', async () => {
    const project = await freshProject();
    expect((await chat(llm.api, project)).status).toBe(200); // draws a lease carrying no default fallbacks
    await llm.api.put('/v1/fallbacks', { headers: project.headers, body: { fallbacks: ['claude-haiku-4-5'] } });
    llm.openai.faults.push({ status: 500 }, { status: 500 }, { status: 500 });
    const answer = await chat(llm.api, project);
    expect(answer.status).toBe(200);
    expect(answer.body.model).toMatch(/^claude-haiku-4-5/);
  });
});

describe('tenant isolation', () => {
  it('when one project holds a lease, then another project’s request is never admitted from it', async () => {
    const leased = await freshProject();
    const spent = await freshProject({ monthlyBudgetUsd: 0 });
    expect((await chat(llm.api, leased)).status).toBe(200);
    const refused = await chat(llm.api, spent);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('BUDGET_EXCEEDED');
    expect((await chat(llm.api, leased)).status).toBe(200);
    expect((await row(spent)).requests).toBe(0);
  });
});
