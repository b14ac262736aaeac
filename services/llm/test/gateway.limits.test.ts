import request from 'supertest';
import { assembleService, type AssembledService } from '@platform/runtime';
import type { ApiClient, TestProject } from '@platform/testkit';
import { llmService, type LlmServiceShared } from '../src';
import { hello } from './support/gateway-client';
import { llmApi, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let replicas: ApiClient[];
let second: AssembledService<LlmServiceShared>;
let replicaShared: LlmServiceShared[];

beforeAll(async () => {
  llm = await startLlmTestService({ llmEnv: { LLM_VENDOR_TIMEOUT_MS: '5000' } });
  // A second replica: its own build (meters, clients, logs), the same database.
  second = assembleService(llmService, { ...llm.svc.deps });
  replicaShared = [llm.svc.parts.shared, second.parts.shared];
  replicas = [llm.api, llmApi(second.app)];
});

afterAll(async () => {
  await second.close();
  await llm.close();
});

// Settled: each replica's lease given back and every settlement written.
const settleAll = () =>
  Promise.all(
    replicaShared.map(async (shared) => {
      await shared.admissions.returnLeases();
      await shared.meters.flush();
    }),
  );
const chat = (i: number, project: TestProject, body: object = {}) =>
  replicas[i % 2].post('/v1/chat/completions', {
    headers: project.headers,
    body: { model: 'gpt-4o-mini', messages: hello, ...body },
  });

describe('PUT and GET /v1/limits', () => {
  it('when limits are set, then GET returns them with this month’s spend', async () => {
    const project = await llm.projectWithVendors();
    const empty = await llm.api.get('/v1/limits', { headers: project.headers });
    expect(empty.body).toMatchObject({ monthlyBudgetUsd: null, requestsPerMinute: null, spentThisMonthUsd: 0 });
    const put = await llm.api.put('/v1/limits', {
      headers: project.headers,
      body: { monthlyBudgetUsd: 5, requestsPerMinute: 100 },
    });
    expect(put.status).toBe(200);
    await chat(0, project);
    await settleAll();
    const res = await llm.api.get('/v1/limits', { headers: project.headers });
    expect(res.body).toMatchObject({ monthlyBudgetUsd: 5, requestsPerMinute: 100, tokensPerMinute: null });
    expect(res.body.spentThisMonthUsd).toBe(0.00000555);
    expect(res.body.reservedUsd).toBe(0);
    expect(res.body.month).toMatch(/-01T00:00:00\.000Z$/);
  });

  it.each([{ monthlyBudgetUsd: -1 }, { requestsPerMinute: 0 }, { tokensPerMinute: 1.5 }, { requestsPerMinute: 'x' }])(
    'when the body is %j, then 400',
    async (body) => {
      const res = await llm.api.put('/v1/limits', { headers: (await llm.projectWithVendors()).headers, body: body });
      expect(res.status).toBe(400);
    },
  );

  it('when default fallbacks name an unknown model, then 400; a known list is stored and read back', async () => {
    const project = await llm.projectWithVendors();
    expect(
      (await llm.api.put('/v1/fallbacks', { headers: project.headers, body: { fallbacks: ['llama'] } })).status,
    ).toBe(400);
    await llm.api.put('/v1/fallbacks', { headers: project.headers, body: { fallbacks: ['claude-haiku-4-5'] } });
    expect((await llm.api.get('/v1/fallbacks', { headers: project.headers })).body).toEqual({
      fallbacks: ['claude-haiku-4-5'],
    });
  });
});

describe('limits enforced across replicas', () => {
  it('when requests come faster than requestsPerMinute through two replicas, then the excess gets 429 RATE_LIMITED with Retry-After', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: project.headers, body: { requestsPerMinute: 5 } });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => chat(i, project)));
    const ok = answers.filter((r) => r.status === 200);
    const limited = answers.filter((r) => r.status === 429);
    // A minute boundary between requests would reset the window once.
    expect(ok.length === 5 || ok.length === 10).toBe(true);
    expect(limited.length).toBe(12 - ok.length);
    expect(limited[0].body.error).toMatchObject({ code: 'RATE_LIMITED', type: 'rate_limit_error' });
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited[0].headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('when the minute’s tokens reach tokensPerMinute, then the next request gets 429 naming that limit', async () => {
    const project = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: project.headers, body: { tokensPerMinute: 30 } });
    expect((await chat(0, project)).status).toBe(200); // 18 tokens
    await settleAll();
    expect((await chat(1, project)).status).toBe(200); // 36
    await settleAll();
    const refused = await chat(0, project);
    if (refused.status === 200) return; // the minute turned meanwhile: nothing to judge
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain('tokensPerMinute');
  });

  it('when 50 requests race at a nearly spent budget, then spend overshoots the budget by at most one request’s cost', async () => {
    const project = await llm.projectWithVendors();
    const budget = 0.001;
    await llm.api.put('/v1/limits', { headers: project.headers, body: { monthlyBudgetUsd: budget } });
    // Spent so far: all but 2.5 requests' worth (one request costs 0.00000555 USD).
    await llm.svc.deps
      .db('project_limits')
      .where({ project_id: project.projectId })
      .update({ spent_usd: budget - 2.5 * 0.00000555 });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => chat(i, project, { max_tokens: 7 })));
    await settleAll();
    const ok = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBe(50 - ok);
    expect(refused[0].body.error.code).toBe('BUDGET_EXCEEDED');
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThan(0);
    const limits = await llm.api.get('/v1/limits', { headers: project.headers });
    expect(limits.body.spentThisMonthUsd).toBeLessThanOrEqual(budget + 0.00000555 + 1e-12);
    expect(limits.body.reservedUsd).toBe(0);
  });
});

describe('tenant isolation', () => {
  it('when one project is over its limits, then another project’s requests, limits, logs and models are its own', async () => {
    const spent = await llm.projectWithVendors();
    const other = await llm.projectWithVendors();
    await llm.api.put('/v1/limits', { headers: spent.headers, body: { monthlyBudgetUsd: 0 } });
    expect((await chat(0, spent)).status).toBe(429);
    expect((await chat(1, other)).status).toBe(200);
    expect((await llm.api.get('/v1/limits', { headers: other.headers })).body.monthlyBudgetUsd).toBeNull();
    await replicaShared[0].logs.flush();
    await replicaShared[1].logs.flush();
    const spentLogs = await llm.api.get(`/v1/logs/${spent.tenantId}/${spent.projectId}`, { headers: spent.headers });
    expect(spentLogs.body.logs).toEqual([]);
    const crossed = await llm.api.get(`/v1/logs/${other.tenantId}/${other.projectId}`, { headers: spent.headers });
    expect(crossed.status).toBe(403);
    // The single credential of one project with the other's key headers absent: it names its own project only.
    const res = await request(llm.svc.app)
      .get('/v1/limits')
      .set({ authorization: `Bearer ${other.apiKey}.${other.secretKey}` });
    expect(res.status).toBe(401);
  });
});
