import { statementsDuring, type TestProject } from '@platform/testkit';
import { user } from './support/batch-helpers';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;

beforeAll(async () => {
  // Logs and meters written a minute late: only a read's own catching up can show them in time.
  llm = await startLlmTestService({ llmEnv: { LLM_LOG_FLUSH_MS: '60000', LLM_METER_FLUSH_MS: '60000' } });
});

afterAll(async () => {
  await llm.close();
});

const chat = (project: TestProject) =>
  llm.api.post('/v1/chat/completions', {
    headers: project.headers,
    body: { model: 'gpt-4o-mini', messages: user('hello') },
  });

describe('reads that follow a client’s own requests', () => {
  it('when logs are written in groups, then GET /v1/logs and /v1/stats at once include the request just answered, and only the caller’s', async () => {
    const [project, other] = [await llm.projectWithVendors(), await llm.projectWithVendors()];
    expect((await chat(project)).status).toBe(200);
    expect((await chat(other)).status).toBe(200);
    expect(llm.svc.parts.shared.logs.pending).toBeGreaterThan(0);

    const logs = await llm.api.get(`/v1/logs/${project.tenantId}/${project.projectId}`, { headers: project.headers });
    expect(logs.status).toBe(200);
    expect(logs.body.total).toBe(1);
    expect(logs.body.logs[0]).toMatchObject({ model: 'gpt-4o-mini', status: 'success' });
    const stats = await llm.api.get(`/v1/stats/${project.tenantId}/${project.projectId}`, { headers: project.headers });
    expect(stats.status).toBe(200);
    expect(stats.body.totalRequests).toBe(1);
    expect(llm.svc.parts.shared.logs.pending).toBe(0);
  });

  it('when meters are settled in groups, then GET /v1/limits at once shows the spend of the request just answered, and only the caller’s', async () => {
    const [project, other] = [await llm.projectWithVendors(), await llm.projectWithVendors()];
    for (const p of [project, other]) {
      const limits = await llm.api.put('/v1/limits', { headers: p.headers, body: { monthlyBudgetUsd: 10 } });
      expect(limits.status).toBe(200);
    }
    const answer = await chat(project);
    expect(answer.status).toBe(200);

    const limits = await llm.api.get('/v1/limits', { headers: project.headers });
    expect(limits.status).toBe(200);
    expect(limits.body.spentThisMonthUsd).toBeCloseTo(Number(answer.headers['x-llm-cost-usd']), 12);
    expect(limits.body.spentThisMonthUsd).toBeGreaterThan(0);
    const untouched = await llm.api.get('/v1/limits', { headers: other.headers });
    expect(untouched.body.spentThisMonthUsd).toBe(0);
  });

  it('when a project with nothing waiting reads its logs, stats or limits, then no other project’s rows are written early', async () => {
    const [busy, idle] = [await llm.projectWithVendors(), await llm.projectWithVendors()];
    const limits = await llm.api.put('/v1/limits', { headers: busy.headers, body: { monthlyBudgetUsd: 10 } });
    expect(limits.status).toBe(200);
    expect((await chat(busy)).status).toBe(200);
    const { logs, meters } = llm.svc.parts.shared;
    const pendingLogs = logs.pending;
    expect(pendingLogs).toBeGreaterThan(0);

    const sent = await statementsDuring(llm.svc.deps.db, async () => {
      for (const path of [
        `/v1/logs/${idle.tenantId}/${idle.projectId}`,
        `/v1/stats/${idle.tenantId}/${idle.projectId}`,
      ])
        expect((await llm.api.get(path, { headers: idle.headers })).status).toBe(200);
      expect((await llm.api.get('/v1/limits', { headers: idle.headers })).status).toBe(200);
    });
    expect(sent.filter((sql) => /^(insert|update)/i.test(sql))).toEqual([]);
    expect(logs.pending).toBe(pendingLogs);

    await meters.flush();
    await logs.flush();
  });
});
