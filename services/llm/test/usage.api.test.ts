import { waitFor, type TestProject, type TestService } from '@platform/testkit';
import type { ApiClient } from '@platform/testkit';
import { user } from './support/batch-helpers';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let svc: TestService;
let api: ApiClient;
let project: TestProject;
let other: TestProject;

const logsPath = (p: TestProject) => `/v1/logs/${p.tenantId}/${p.projectId}`;
const statsPath = (p: TestProject) => `/v1/stats/${p.tenantId}/${p.projectId}`;

beforeAll(async () => {
  llm = await startLlmTestService();
  ({ svc, api } = llm);
  project = await svc.createProject();
  other = await svc.createProject();
  for (const p of [project, other]) await configureVendors(api, p);
  // project: 2 gpt-4o (18 tokens each), 1 claude (30 tokens), 1 vendor error; other: 1 gpt-4o.
  for (const body of [
    { model: 'gpt-4o', messages: user('a') },
    { model: 'gpt-4o', messages: user('b') },
    { model: 'claude-sonnet-4-5', messages: user('c') },
    { model: 'gpt-nonexistent', messages: user('d') },
  ]) {
    await api.post('/v1/completions', { headers: project.headers, body: body });
  }
  await api.post('/v1/completions', { headers: other.headers, body: { model: 'gpt-4o', messages: user('e') } });
  await waitFor(async () => (await api.get(logsPath(project), { headers: project.headers })).body.total === 4);
  await waitFor(async () => (await api.get(logsPath(other), { headers: other.headers })).body.total === 1);
});

afterAll(() => llm.close());

describe('GET /v1/logs/{tenant_id}/{project_id}', () => {
  it('when logs are paged, then they come newest first with total, limit and offset', async () => {
    const all = await api.get(logsPath(project), { headers: project.headers });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 4, limit: 50, offset: 0 });
    expect(all.body.logs.map((l: { model: string }) => l.model)).toEqual([
      'gpt-nonexistent',
      'claude-sonnet-4-5',
      'gpt-4o',
      'gpt-4o',
    ]);
    const page = await api.get(`${logsPath(project)}?limit=2&offset=1`, { headers: project.headers });
    expect(page.body.logs.map((l: { id: string }) => l.id)).toEqual(
      all.body.logs.slice(1, 3).map((l: { id: string }) => l.id),
    );
  });

  it('when the path names another project than the keys, then 403 FORBIDDEN', async () => {
    const res = await api.get(logsPath(other), { headers: project.headers });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(
      (await api.get(`/v1/logs/${project.tenantId}/${other.projectId}`, { headers: project.headers })).status,
    ).toBe(403);
  });

  it('when limit is over 100 or negative, then 400', async () => {
    expect((await api.get(`${logsPath(project)}?limit=101`, { headers: project.headers })).status).toBe(400);
    expect((await api.get(`${logsPath(project)}?offset=-1`, { headers: project.headers })).status).toBe(400);
  });

  it('when logs are filtered by model, status and time, then the page and its total hold only those', async () => {
    const models = (body: { logs: { model: string }[] }) => body.logs.map((l) => l.model);
    const byModel = await api.get(`${logsPath(project)}?model=gpt-4o&limit=1`, { headers: project.headers });
    expect(byModel.status).toBe(200);
    expect({ total: byModel.body.total, models: models(byModel.body) }).toEqual({ total: 2, models: ['gpt-4o'] });
    const failed = await api.get(`${logsPath(project)}?status=error`, { headers: project.headers });
    expect({ total: failed.body.total, models: models(failed.body) }).toEqual({
      total: 1,
      models: ['gpt-nonexistent'],
    });
    const both = await api.get(`${logsPath(project)}?model=gpt-4o&status=error`, { headers: project.headers });
    expect(both.body).toMatchObject({ total: 0, logs: [] });
    // Another project's log of the same model is never counted.
    const otherModel = await api.get(`${logsPath(other)}?model=gpt-4o`, { headers: other.headers });
    expect(otherModel.body.total).toBe(1);

    const past = await api.get(`${logsPath(project)}?from=2000-01-01T00:00:00.000Z&to=2000-01-02T00:00:00.000Z`, {
      headers: project.headers,
    });
    expect(past.body).toMatchObject({ total: 0, logs: [] });
    const since = await api.get(`${logsPath(project)}?from=2000-01-01T00:00:00.000Z&status=success`, {
      headers: project.headers,
    });
    expect(since.body.total).toBe(3);
    // Past the last page of a filtered list, the total is still the filtered one.
    const beyond = await api.get(`${logsPath(project)}?model=gpt-4o&offset=10`, { headers: project.headers });
    expect(beyond.body).toMatchObject({ total: 2, logs: [] });
  });

  it('when a filter is not a known status, a date, or from is after to, then 400 VALIDATION_ERROR', async () => {
    for (const query of [
      'status=pending',
      'from=yesterday',
      'from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z',
      `model=${'m'.repeat(201)}`,
    ]) {
      const res = await api.get(`${logsPath(project)}?${query}`, { headers: project.headers });
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });
});

describe('GET /v1/stats/{tenant_id}/{project_id}', () => {
  it('when completions ran, then the sums cover only this project, per model and per provider', async () => {
    const res = await api.get(statsPath(project), { headers: project.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalRequests: 4,
      successfulRequests: 3,
      failedRequests: 1,
      promptTokens: 11 + 11 + 25,
      completionTokens: 7 + 7 + 5,
      totalTokens: 18 + 18 + 30,
      byModel: [
        { model: 'claude-sonnet-4-5', requests: 1, totalTokens: 30 },
        { model: 'gpt-4o', requests: 2, totalTokens: 36 },
        { model: 'gpt-nonexistent', requests: 1, totalTokens: 0 },
      ],
      byProvider: [
        { provider: 'anthropic', requests: 1, totalTokens: 30 },
        { provider: 'openai', requests: 3, totalTokens: 36 },
      ],
    });
    expect(res.body.averageLatencyMs).toBeGreaterThanOrEqual(0);
  });

  it('when a time range excludes every log, then the totals are zero', async () => {
    const res = await api.get(`${statsPath(project)}?from=2000-01-01T00:00:00.000Z&to=2000-01-02T00:00:00.000Z`, {
      headers: project.headers,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalRequests: 0,
      totalTokens: 0,
      averageLatencyMs: 0,
      byModel: [],
      byProvider: [],
    });
    const open = await api.get(`${statsPath(project)}?from=2000-01-01T00:00:00.000Z`, { headers: project.headers });
    expect(open.body.totalRequests).toBe(4);
  });

  it('when from is after to or not a date, then 400', async () => {
    expect(
      (
        await api.get(`${statsPath(project)}?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z`, {
          headers: project.headers,
        })
      ).status,
    ).toBe(400);
    expect((await api.get(`${statsPath(project)}?from=yesterday`, { headers: project.headers })).status).toBe(400);
  });

  it('when the path names another project than the keys, then 403 FORBIDDEN', async () => {
    const res = await api.get(statsPath(project), { headers: other.headers });
    expect(res.status).toBe(403);
  });
});
