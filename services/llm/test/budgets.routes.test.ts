import request from 'supertest';
import type { StopFunction } from '@platform/runtime';
import type { TestProject } from '@platform/testkit';
import { user, waitForBatch } from './support/batch-helpers';
import { hello } from './support/gateway-client';
import { startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let stopBackground: StopFunction;

beforeAll(async () => {
  llm = await startLlmTestService({
    llmEnv: { LLM_BATCH_CONCURRENCY: '2', LLM_BATCH_HEARTBEAT_MS: '100', LLM_BATCH_SWEEP_INTERVAL_MS: '200' },
  });
  llm.svc.deps.relay.start();
  stopBackground = await llm.svc.startJobs();
});

afterAll(async () => {
  await stopBackground();
  await llm.close();
});

/** One gpt-4o-mini call of the stand-in: 11 prompt and 7 completion tokens. */
const ONE_CALL_USD = 0.00000555;

const settle = async () => {
  await llm.svc.parts.shared.admissions.returnLeases();
  await llm.svc.parts.shared.meters.flush();
};
const limitsOf = async (project: TestProject) => (await llm.api.get('/v1/limits', { headers: project.headers })).body;
const vendorCallsFor = (model: string) =>
  llm.openai.requests.filter((r) => (r.body as { model?: string } | undefined)?.model === model).length;

/** A project with a budget of which only `leftUsd` is left. */
async function nearlySpent(leftUsd: number, budget = 0.001): Promise<TestProject> {
  const project = await llm.projectWithVendors();
  await llm.api.put('/v1/limits', { headers: project.headers, body: { monthlyBudgetUsd: budget } });
  await llm.svc.deps
    .db('project_limits')
    .where({ project_id: project.projectId })
    .update({ spent_usd: budget - leftUsd });
  return project;
}

describe('a model without a price under a budget', () => {
  it('when 20 concurrent chat completions (whole and streamed) name o1-pro against a nearly spent budget, then each is refused 400 in OpenAI’s shape naming the model, none reaches the vendor, and spend is unchanged', async () => {
    const project = await nearlySpent(2.5 * ONE_CALL_USD);
    const vendorBefore = vendorCallsFor('o1-pro');
    // A priced request first: this replica then holds a lease, so both admission paths are tried.
    const priced = await llm.api.post('/v1/chat/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o-mini', messages: hello, max_tokens: 7 },
    });
    expect(priced.status).toBe(200);
    await llm.svc.parts.shared.meters.flush();
    const spentBefore = (await limitsOf(project)).spentThisMonthUsd;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        llm.api.post('/v1/chat/completions', {
          headers: project.headers,
          body: { model: 'o1-pro', messages: hello, max_tokens: 1_000_000, stream: i % 2 === 1 },
        }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
      expect(answer.body.error.message).toContain('"o1-pro" has no price');
      expect(answer.body.error.details[0].message).toContain('price table');
    }
    expect(vendorCallsFor('o1-pro')).toBe(vendorBefore);
    await settle();
    const after = await limitsOf(project);
    expect(after.spentThisMonthUsd).toBe(spentBefore);
    expect(after.reservedUsd).toBe(0);
  });

  it('when a fallback has no price under a budget, then 400 names it; without a budget the unpriced model is served and logged without a cost', async () => {
    const budgeted = await nearlySpent(0.0005);
    const withFallback = await llm.api.post('/v1/chat/completions', {
      headers: budgeted.headers,
      body: { model: 'gpt-4o-mini', messages: hello, max_tokens: 7, fallbacks: ['o1-pro'] },
    });
    expect(withFallback.status).toBe(400);
    expect(withFallback.body.error).toMatchObject({ param: 'fallbacks' });

    const free = await llm.projectWithVendors();
    const served = await llm.api.post('/v1/chat/completions', {
      headers: free.headers,
      body: { model: 'o1-pro', messages: hello },
    });
    expect(served.status).toBe(200);
    expect(served.headers['x-llm-cost-usd']).toBeUndefined();
  });
});

describe('every spending route is under the budget', () => {
  it('when the budget is spent, then POST /v1/completions is refused 429 BUDGET_EXCEEDED before the vendor; an unpriced model under a budget is 400', async () => {
    const project = await nearlySpent(0);
    const before = vendorCallsFor('gpt-4o');
    const refused = await llm.api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o', messages: hello, max_tokens: 7 },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'BUDGET_EXCEEDED' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(vendorCallsFor('gpt-4o')).toBe(before);

    const open = await nearlySpent(0.0005);
    const unpricedBefore = vendorCallsFor('o1-pro');
    const unpriced = await llm.api.post('/v1/completions', {
      headers: open.headers,
      body: { model: 'o1-pro', messages: hello },
    });
    expect(unpriced.status).toBe(400);
    expect(unpriced.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(unpriced.body.error.details[0]).toMatchObject({ path: 'model' });
    expect(vendorCallsFor('o1-pro')).toBe(unpricedBefore);
  });

  it('when the budget is spent or a request names an unpriced model, then POST /v1/batch is refused; items beyond what is left fail without reaching the vendor', async () => {
    const spent = await nearlySpent(0);
    const item = (id: string, model = 'gpt-4.1-nano') => ({ custom_id: id, model, messages: user(id), max_tokens: 7 });
    const refused = await llm.api.post('/v1/batch', { headers: spent.headers, body: { requests: [item('a')] } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('BUDGET_EXCEEDED');
    const open = await nearlySpent(0.0005);
    const unpriced = await llm.api.post('/v1/batch', {
      headers: open.headers,
      body: { requests: [item('a'), item('b', 'o1-pro')] },
    });
    expect(unpriced.status).toBe(400);
    expect(unpriced.body.error.details[0]).toMatchObject({ path: 'requests.1.model' });

    // Room for about two items' worst case: the rest are refused as they come to run.
    const worstCase = (JSON.stringify(user('x-0')).length * 0.1 + 7 * 0.4) / 1e6;
    const budget = 0.001;
    const tight = await nearlySpent(2.5 * worstCase, budget);
    const submitted = await llm.api.post('/v1/batch', {
      headers: tight.headers,
      body: { requests: Array.from({ length: 8 }, (_, i) => item(`x-${i}`)) },
    });
    expect(submitted.status).toBe(201);
    const done = await waitForBatch(llm.api, tight.headers, submitted.body.batchId, ['completed', 'failed']);
    // Each is admitted while the budget is not spent, counting the worst case of those running.
    expect(done.completedCount).toBeGreaterThanOrEqual(1);
    expect(done.failedCount).toBeGreaterThanOrEqual(1);
    expect(done.failedCount).toBe(8 - done.completedCount);
    expect(vendorCallsFor('gpt-4.1-nano')).toBe(done.completedCount);
    const results = await llm.api.get(`/v1/batch/${submitted.body.batchId}/results`, { headers: tight.headers });
    const failed = results.body.results.filter((r: { status: string }) => r.status === 'failed');
    expect(failed[0].error).toMatch(/budget is spent/);
    await settle();
    const limits = await limitsOf(tight);
    expect(limits.spentThisMonthUsd).toBeLessThanOrEqual(budget + worstCase);
    expect(limits.reservedUsd).toBe(0);
  });
});

describe('GET /v1/limits agrees with the logs', () => {
  it('when a project used every spending route (a retried whole chat, a stream, a completion, a batch), then its spend equals the cost GET /v1/stats sums for the month', async () => {
    const project = await nearlySpent(0.5, 1);
    llm.openai.faults.push({ status: 500 });
    const whole = await llm.api.post('/v1/chat/completions', {
      headers: project.headers,
      body: { model: 'gpt-4o-mini', messages: hello, max_tokens: 7 },
    });
    expect(whole.status).toBe(200);
    const streamed = await request(llm.svc.app)
      .post('/v1/chat/completions')
      .set(project.headers)
      .send({ model: 'gpt-4o', messages: hello, stream: true })
      .buffer(true);
    expect(streamed.status).toBe(200);
    expect(streamed.text).toContain('data: [DONE]');
    const completion = await llm.api.post('/v1/completions', {
      headers: project.headers,
      body: { model: 'gpt-4.1', messages: hello, max_tokens: 7 },
    });
    expect(completion.status).toBe(200);
    const batch = await llm.api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: [
          { custom_id: 'a', model: 'gpt-5', messages: user('a') },
          { custom_id: 'b', model: 'claude-haiku-4-5', messages: user('b') },
        ],
      },
    });
    expect(batch.status).toBe(201);
    await waitForBatch(llm.api, project.headers, batch.body.batchId, ['completed']);
    await settle();
    const stats = await llm.api.get(`/v1/stats/${project.tenantId}/${project.projectId}`, {
      headers: project.headers,
    });
    expect(stats.body.costUsd).toBeGreaterThan(0);
    expect(stats.body.totalRequests).toBe(6);
    const limits = await limitsOf(project);
    expect(Math.round((limits.spentThisMonthUsd - 0.5) * 1e10) / 1e10).toBe(stats.body.costUsd);
    expect(limits.reservedUsd).toBe(0);
  });
});
