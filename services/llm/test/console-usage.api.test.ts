import { randomUUID } from 'node:crypto';
import type { ApiClient, TestProject } from '@platform/testkit';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let api: ApiClient;

beforeAll(async () => {
  llm = await startLlmTestService();
  api = llm.api;
});
afterAll(() => llm.close());

const DAY_MS = 86_400_000;
const dayOf = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const complete = (project: TestProject, model: string) =>
  api.post('/v1/completions', {
    headers: project.headers,
    body: { model, messages: [{ role: 'user', content: 'Hello' }] },
  });

describe('the vendors a project has configured', () => {
  it('when a project lists its providers, then it sees its own vendors and never a key', async () => {
    const project = await llm.svc.createProject();
    const other = await llm.svc.createProject();
    await configureVendors(api, project, ['openai']);
    const res = await api.get('/v1/providers', { headers: project.headers });
    expect(res.status).toBe(200);
    expect(res.body.providers).toEqual([
      { id: expect.any(String), providerType: 'openai', configured: true, createdAt: expect.any(String) },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('sk-test');
    expect((await api.get('/v1/providers', { headers: other.headers })).body.providers).toEqual([]);
    expect((await api.get('/v1/providers')).status).toBe(401);
  });
});

describe('usage per day and model', () => {
  it('when a project asks for its daily usage, then requests and tokens are summed per UTC day and model, and no other project’s', async () => {
    const project = await llm.projectWithVendors();
    const other = await llm.projectWithVendors();
    expect((await complete(project, 'gpt-4o-mini')).status).toBe(200);
    expect((await complete(project, 'gpt-4o-mini')).status).toBe(200);
    expect((await complete(project, 'claude-3-5-haiku-latest')).status).toBe(200);
    expect((await complete(other, 'gpt-4o-mini')).status).toBe(200);
    // A log of three days ago, as the completion log keeps it.
    await llm.svc.deps.db('completion_logs').insert({
      id: randomUUID(),
      tenant_id: project.tenantId,
      project_id: project.projectId,
      model: 'gpt-4o-mini',
      provider: 'openai',
      status: 'error',
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      latency_ms: 5,
      error: 'vendor down',
      created_at: new Date(Date.now() - 3 * DAY_MS),
    });

    const res = await api.get(`/v1/usage/daily?from=${dayOf(-3)}&to=${dayOf(0)}`, { headers: project.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: dayOf(-3), to: dayOf(0) });
    expect(res.body.days.map((d: { day: string; model: string }) => [d.day, d.model])).toEqual([
      [dayOf(-3), 'gpt-4o-mini'],
      [dayOf(0), 'claude-3-5-haiku-latest'],
      [dayOf(0), 'gpt-4o-mini'],
    ]);
    const [old, , today] = res.body.days;
    expect(old).toMatchObject({ requests: 1, failedRequests: 1, successfulRequests: 0, totalTokens: 0 });
    expect(today).toMatchObject({ requests: 2, failedRequests: 0, successfulRequests: 2 });
    expect(today.totalTokens).toBeGreaterThan(0);

    const recent = await api.get(`/v1/usage/daily?from=${dayOf(-1)}`, { headers: project.headers });
    expect(recent.body.days).toHaveLength(2);
    const others = await api.get('/v1/usage/daily', { headers: other.headers });
    expect(others.body.days).toEqual([expect.objectContaining({ model: 'gpt-4o-mini', requests: 1 })]);
  });

  it('when the range is not a span of real days of at most 366, then it is 400; without keys 401', async () => {
    const project = await llm.svc.createProject();
    for (const query of [
      `from=${dayOf(0)}&to=${dayOf(-1)}`,
      `from=${dayOf(-400)}&to=${dayOf(0)}`,
      'from=2026-02-30',
      'to=yesterday',
    ]) {
      const res = await api.get(`/v1/usage/daily?${query}`, { headers: project.headers });
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    expect((await api.get('/v1/usage/daily')).status).toBe(401);
  });
});
