import { waitFor, webhookReceiver, type TestProject, type TestService } from '@platform/testkit';
import type { StopFunction } from '@platform/runtime';
import { Webhook } from 'standardwebhooks';
import { verifyWebhookSignature } from '@platform/webhooks';
import type { ApiClient } from '@platform/testkit';
import { requests, resultCount, user, waitForBatch, webhookEvents } from './support/batch-helpers';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';

let llm: LlmTestService;
let svc: TestService;
let api: ApiClient;
let project: TestProject;
let stopBackground: StopFunction;

beforeAll(async () => {
  llm = await startLlmTestService({
    llmEnv: {
      LLM_BATCH_CONCURRENCY: '4',
      LLM_BATCH_MAX_REQUESTS: '50',
      LLM_BATCH_HEARTBEAT_MS: '100',
      LLM_BATCH_STALE_MS: '600',
      LLM_BATCH_SWEEP_INTERVAL_MS: '200',
      LLM_WEBHOOK_RETRY_DELAYS_MS: '50,100,150,200,250',
    },
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  });
  ({ svc, api } = llm);
  svc.deps.relay.start();
  stopBackground = await svc.startJobs();
  project = await svc.createProject();
  await configureVendors(api, project);
});

afterAll(async () => {
  await stopBackground();
  await llm.close();
});

describe('batch lifecycle (in-process bus)', () => {
  it('when a batch is submitted, then it goes pending -> completed with one result per custom_id and a signed webhook', async () => {
    const receiver = await webhookReceiver(project.webhookSecret);
    const submitted = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: [
          { custom_id: 'a', model: 'gpt-4o-mini', messages: user('one') },
          { custom_id: 'b', model: 'claude-sonnet-4-5', messages: [{ role: 'system', content: 's' }, ...user('two')] },
          { custom_id: 'c', model: 'gpt-nonexistent', messages: user('three') },
        ],
        webhook_url: `${receiver.url}/hooks/batch`,
      },
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toEqual({
      batchId: expect.any(String),
      status: 'pending',
      requestCount: 3,
      createdAt: expect.any(String),
    });
    const { batchId } = submitted.body;

    const done = await waitForBatch(api, project.headers, batchId, ['completed', 'failed']);
    expect(done).toMatchObject({ batchId, status: 'completed', requestCount: 3, completedCount: 2, failedCount: 1 });
    expect(done.completedAt).toMatch(/Z$/);

    const results = await api.get(`/v1/batch/${batchId}/results`, { headers: project.headers });
    expect(results.status).toBe(200);
    expect(results.body.results.map((r: { custom_id: string }) => r.custom_id)).toEqual(['a', 'b', 'c']);
    expect(results.body.results[0]).toEqual({
      custom_id: 'a',
      status: 'succeeded',
      completion: 'openai says: one',
      model: 'gpt-4o-mini-2024-07-18',
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    });
    expect(results.body.results[1]).toMatchObject({
      status: 'succeeded',
      completion: 'anthropic says: two',
      usage: { prompt_tokens: 25, completion_tokens: 5, total_tokens: 30 },
    });
    expect(results.body.results[2]).toMatchObject({ status: 'failed', completion: null, usage: { total_tokens: 0 } });
    expect(results.body.results[2].error).toContain('does not exist');

    const hook = await waitFor(() => receiver.requests[0]);
    expect(hook.path).toBe('/hooks/batch');
    expect(hook.body).toEqual({
      event: 'batch.completed',
      batchId,
      status: 'completed',
      requestCount: 3,
      completedCount: 2,
      failedCount: 1,
      completedAt: done.completedAt,
    });
    expect(
      verifyWebhookSignature(project.webhookSecret, hook.rawBody, String(hook.headers['x-webhook-signature'])),
    ).toBe(true);
    expect(verifyWebhookSignature('whsec_wrong', hook.rawBody, String(hook.headers['x-webhook-signature']))).toBe(
      false,
    );
    expect(hook.headers['x-webhook-id']).toEqual(expect.any(String));
    // The Standard Webhooks library, given the project's secret as printed, verifies the same delivery.
    expect(new Webhook(project.webhookSecret).verify(hook.rawBody, hook.headers as Record<string, string>)).toEqual(
      hook.body,
    );
    const attempts = await waitFor(async () => {
      const rows = await svc.deps.db('webhook_attempts').where({ batch_id: batchId });
      return rows.length ? rows : null;
    });
    expect(attempts).toMatchObject([{ attempt: 1, outcome: 'delivered', status_code: 200 }]);

    const logs = await waitFor(async () => {
      const rows = await svc.deps.db('completion_logs').where({ batch_id: batchId });
      return rows.length === 3 ? rows : null;
    });
    expect(logs.map((l: { status: string }) => l.status).sort()).toEqual(['error', 'success', 'success']);
    await receiver.close();
  });

  it('when every item fails, then the batch is failed, its results stay 425 and the webhook says failed', async () => {
    const receiver = await webhookReceiver(project.webhookSecret);
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: requests(2, 'gpt-nonexistent'),
        webhook_url: receiver.url,
      },
    });
    const done = await waitForBatch(api, project.headers, body.batchId, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'failed', completedCount: 0, failedCount: 2 });
    const results = await api.get(`/v1/batch/${body.batchId}/results`, { headers: project.headers });
    expect(results.status).toBe(425);
    expect(results.body.error.code).toBe('TOO_EARLY');
    const hook = await waitFor(() => receiver.requests[0]);
    expect(hook.body).toMatchObject({ event: 'batch.completed', status: 'failed', failedCount: 2 });
    await receiver.close();
  });

  it('when the batch cannot run at all (its stored key is unreadable), then it ends failed', async () => {
    const broken = await svc.createProject();
    await configureVendors(api, broken, ['openai']);
    await svc.deps.db('providers').where({ project_id: broken.projectId }).update({ api_key_enc: 'v1.garbage' });
    const { body } = await api.post('/v1/batch', {
      headers: broken.headers,
      body: { requests: requests(3, 'gpt-4o') },
    });
    const done = await waitForBatch(api, broken.headers, body.batchId, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'failed', completedCount: 0, failedCount: 3 });
  });

  it('when results are asked for before completion, then 425 TOO_EARLY', async () => {
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: { requests: requests(8, 'gpt-4o-delay-200') },
    });
    const early = await api.get(`/v1/batch/${body.batchId}/results`, { headers: project.headers });
    expect(early.status).toBe(425);
    await waitForBatch(api, project.headers, body.batchId, ['completed']);
    expect((await api.get(`/v1/batch/${body.batchId}/results`, { headers: project.headers })).status).toBe(200);
  });

  it('when a batch is cancelled, then 200, no new item starts, and a second cancel is 409', async () => {
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: { requests: requests(40, 'gpt-4o-delay-100') },
    });
    await waitFor(() => resultCount(svc.deps.db, body.batchId).then((n) => n >= 1));
    const cancelled = await api.post(`/v1/batch/${body.batchId}/cancel`, { headers: project.headers });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ batchId: body.batchId, status: 'cancelled', message: expect.any(String) });
    const atCancel = await resultCount(svc.deps.db, body.batchId);
    // The run notices the cancel (it looks every 100 ms), lets the calls already running (the
    // concurrency is 4) end and stores them, and gives back the items it had not started.
    // Not cancelled, it would run all 40 before it ended.
    await llm.svc.parts.shared.batchWorker()!.runsEnded();
    const landed = await resultCount(svc.deps.db, body.batchId);
    expect(landed).toBeLessThanOrEqual(atCancel + 16);
    expect(landed).toBeLessThan(40);
    expect(await svc.deps.db('batch_items').where({ batch_id: body.batchId, status: 'processing' })).toEqual([]);
    // A later batch runs to its end on the same worker: nothing more of the cancelled one landed meanwhile.
    const later = await api.post('/v1/batch', { headers: project.headers, body: { requests: requests(2, 'gpt-4o') } });
    await waitForBatch(api, project.headers, later.body.batchId, ['completed']);
    expect(await resultCount(svc.deps.db, body.batchId)).toBe(landed);
    expect((await api.get(`/v1/batch/${body.batchId}`, { headers: project.headers })).body.status).toBe('cancelled');
    expect((await api.get(`/v1/batch/${body.batchId}/results`, { headers: project.headers })).status).toBe(425);
    const again = await api.post(`/v1/batch/${body.batchId}/cancel`, { headers: project.headers });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('when a completed batch is cancelled, then 409', async () => {
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: { requests: requests(1, 'gpt-4o') },
    });
    await waitForBatch(api, project.headers, body.batchId, ['completed']);
    expect((await api.post(`/v1/batch/${body.batchId}/cancel`, { headers: project.headers })).status).toBe(409);
  });

  it('when the worker stops cleanly mid-batch and another starts, then the batch finishes with exactly one result per custom_id', async () => {
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: requests(30, 'gpt-4o-delay-60', 'restart'),
      },
    });
    await waitFor(() => resultCount(svc.deps.db, body.batchId).then((n) => n >= 5));
    await stopBackground();
    const partial = await resultCount(svc.deps.db, body.batchId);
    expect(partial).toBeLessThan(30);
    stopBackground = await svc.startJobs();
    const done = await waitForBatch(api, project.headers, body.batchId, ['completed']);
    expect(done).toMatchObject({ completedCount: 30, failedCount: 0 });
    const results = await api.get(`/v1/batch/${body.batchId}/results`, { headers: project.headers });
    const ids = results.body.results.map((r: { custom_id: string }) => r.custom_id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const logs = await svc.deps
      .db('completion_logs')
      .where({ batch_id: body.batchId, status: 'success' })
      .count({ count: '*' });
    expect(Number(logs[0].count)).toBe(30);
  });
});

describe('stale batch sweeper', () => {
  it('when a worker died without handing its batch on, then the sweeper re-queues it and it finishes with one result per custom_id', async () => {
    await stopBackground();
    await svc.deps.relay.stop();
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: { requests: requests(12, 'gpt-4o', 'orphan') },
    });
    // Its message was taken by a worker that died: published, gone from the broker, nobody on it.
    await svc.deps
      .db('outbox')
      .whereRaw("envelope->'data'->>'batchId' = ?", [body.batchId])
      .update({ published_at: new Date() });
    svc.deps.relay.start();
    // As a dead worker leaves it: processing, silent, with claims of its own.
    await svc.deps
      .db('batches')
      .where({ id: body.batchId })
      .update({ status: 'processing', heartbeat_at: new Date(Date.now() - 60_000) });
    await svc.deps
      .db('batch_items')
      .where({ batch_id: body.batchId })
      .whereIn('custom_id', ['orphan-0', 'orphan-1', 'orphan-2'])
      .update({ status: 'processing', claimed_at: new Date(Date.now() - 60_000) });
    stopBackground = await svc.startJobs();
    const done = await waitForBatch(api, project.headers, body.batchId, ['completed']);
    expect(done).toMatchObject({ completedCount: 12, failedCount: 0 });
    const results = await api.get(`/v1/batch/${body.batchId}/results`, { headers: project.headers });
    expect(results.body.results.map((r: { custom_id: string }) => r.custom_id)).toEqual(
      Array.from({ length: 12 }, (_, i) => `orphan-${i}`),
    );
    const requeued = await svc.deps
      .db('outbox')
      .where({ type: 'llm.batch.resume' })
      .whereRaw("envelope->'data'->>'batchId' = ?", [body.batchId]);
    expect(requeued.length).toBeGreaterThanOrEqual(1);
  });
});

describe('batch validation', () => {
  it.each([
    ['requests is empty', { requests: [] }, 'requests'],
    [
      'a custom_id repeats',
      {
        requests: [
          { custom_id: 'x', model: 'gpt-4o', messages: user('a') },
          { custom_id: 'x', model: 'gpt-4o', messages: user('b') },
        ],
      },
      'requests.1',
    ],
    [
      'a model is unknown',
      {
        requests: [
          { custom_id: 'x', model: 'gpt-4o', messages: user('a') },
          { custom_id: 'y', model: 'mistral-large', messages: user('b') },
        ],
      },
      'requests.1.model',
    ],
    [
      'an item has no messages',
      { requests: [{ custom_id: 'x', model: 'gpt-4o', messages: [] }] },
      'requests.0.messages',
    ],
    [
      'a temperature is out of range',
      { requests: [{ custom_id: 'x', model: 'gpt-4o', messages: user('a'), temperature: 3 }] },
      'requests.0.temperature',
    ],
    ['there are more requests than LLM_BATCH_MAX_REQUESTS', { requests: requests(51, 'gpt-4o') }, 'requests'],
    ['webhook_url is not a URL', { requests: requests(1, 'gpt-4o'), webhook_url: 'not a url' }, 'webhook_url'],
    [
      'webhook_url is not http(s)',
      { requests: requests(1, 'gpt-4o'), webhook_url: 'ftp://example.com/x' },
      'webhook_url',
    ],
  ])('when %s, then 400 names %s', async (_label, body, path) => {
    const res = await api.post('/v1/batch', { headers: project.headers, body: body });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('when a vendor of the batch is not configured, then 403 PROVIDER_NOT_CONFIGURED and nothing is stored', async () => {
    const fresh = await svc.createProject();
    await configureVendors(api, fresh, ['openai']);
    const res = await api.post('/v1/batch', {
      headers: fresh.headers,
      body: {
        requests: [
          { custom_id: 'a', model: 'gpt-4o', messages: user('a') },
          { custom_id: 'b', model: 'claude-sonnet-4-5', messages: user('b') },
        ],
      },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((await api.get('/v1/batch', { headers: fresh.headers })).body.total).toBe(0);
  });
});

describe('batch listing and isolation', () => {
  it('when another project asks for a batch, then 404 everywhere and its list does not show it', async () => {
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: { requests: requests(1, 'gpt-4o') },
    });
    const other = await svc.createProject();
    expect((await api.get(`/v1/batch/${body.batchId}`, { headers: other.headers })).status).toBe(404);
    expect((await api.get(`/v1/batch/${body.batchId}/results`, { headers: other.headers })).status).toBe(404);
    expect((await api.post(`/v1/batch/${body.batchId}/cancel`, { headers: other.headers })).status).toBe(404);
    expect((await api.get('/v1/batch', { headers: other.headers })).body.batches).toEqual([]);
    expect((await api.get('/v1/batch/not-a-uuid', { headers: project.headers })).status).toBe(404);
  });

  it('when batches are listed, then newest first with status filter and limit', async () => {
    const fresh = await svc.createProject();
    await configureVendors(api, fresh, ['openai']);
    const first = await api.post('/v1/batch', { headers: fresh.headers, body: { requests: requests(1, 'gpt-4o') } });
    const second = await api.post('/v1/batch', { headers: fresh.headers, body: { requests: requests(1, 'gpt-4o') } });
    await waitForBatch(api, fresh.headers, first.body.batchId, ['completed']);
    await waitForBatch(api, fresh.headers, second.body.batchId, ['completed']);
    const list = await api.get('/v1/batch?limit=1', { headers: fresh.headers });
    expect(list.body).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(list.body.batches.map((b: { batchId: string }) => b.batchId)).toEqual([second.body.batchId]);
    expect((await api.get('/v1/batch?status=completed', { headers: fresh.headers })).body.total).toBe(2);
    expect((await api.get('/v1/batch?status=pending', { headers: fresh.headers })).body.total).toBe(0);
    expect((await api.get('/v1/batch?status=bogus', { headers: fresh.headers })).status).toBe(400);
    expect((await api.get('/v1/batch?limit=101', { headers: fresh.headers })).status).toBe(400);
  });
});

describe('batch webhook delivery', () => {
  it('when the receiver fails twice, then it is retried with the same X-Webhook-Id and every attempt is recorded', async () => {
    const receiver = await webhookReceiver(project.webhookSecret, 2);
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: requests(1, 'gpt-4o'),
        webhook_url: receiver.url,
      },
    });
    await waitFor(() => receiver.requests.length >= 3 || null, { timeoutMs: 10_000 });
    const ids = new Set(receiver.requests.map((r) => r.headers['x-webhook-id']));
    expect(ids.size).toBe(1);
    for (const hook of receiver.requests) {
      expect(
        verifyWebhookSignature(project.webhookSecret, hook.rawBody, String(hook.headers['x-webhook-signature'])),
      ).toBe(true);
    }
    expect(new Set(receiver.requests.map((r) => r.rawBody)).size).toBe(1);
    const attempts = await waitFor(async () => {
      const rows = await svc.deps.db('webhook_attempts').where({ batch_id: body.batchId }).orderBy('attempt');
      return rows.length === 3 ? rows : null;
    });
    expect(attempts.map((a: { outcome: string; status_code: number }) => [a.outcome, a.status_code])).toEqual([
      ['failed', 500],
      ['failed', 500],
      ['delivered', 200],
    ]);
    await receiver.close();
  });

  it('when the receiver checks signatures with another secret, then it refuses every attempt and the attempts say so', async () => {
    const receiver = await webhookReceiver('whsec_of_someone_else');
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: requests(1, 'gpt-4o'),
        webhook_url: receiver.url,
      },
    });
    const attempts = await waitFor(async () => {
      const rows = await svc.deps.db('webhook_attempts').where({ batch_id: body.batchId }).orderBy('attempt');
      return rows.length === 6 ? rows : null;
    });
    expect(
      attempts.every((a: { outcome: string; status_code: number }) => a.outcome === 'failed' && a.status_code === 400),
    ).toBe(true);
    await receiver.close();
  });

  it('when the webhook host resolves to a private address that is not allow-listed, then nothing is sent and the refusal is recorded', async () => {
    const receiver = await webhookReceiver(project.webhookSecret);
    const port = new URL(receiver.url).port;
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: requests(1, 'gpt-4o'),
        webhook_url: `http://localhost:${port}/hook`,
      },
    });
    const attempts = await waitFor(async () => {
      const rows = await svc.deps.db('webhook_attempts').where({ batch_id: body.batchId });
      return rows.length ? rows : null;
    });
    expect(attempts).toMatchObject([{ outcome: 'refused', status_code: null }]);
    // Neither the host's address nor that it is loopback: a tenant must not learn what internal names resolve to.
    expect(attempts[0].error).toBe('target not allowed: private, loopback and link-local addresses are refused');
    // Its one event handled and no retry queued: no further attempt is to come.
    expect(await webhookEvents(svc.deps.db, body.batchId)).toEqual([{ type: 'llm.batch.finished', handled: true }]);
    expect(receiver.requests).toHaveLength(0);
    expect(await svc.deps.db('webhook_attempts').where({ batch_id: body.batchId })).toHaveLength(1);
    await receiver.close();
  });
});
