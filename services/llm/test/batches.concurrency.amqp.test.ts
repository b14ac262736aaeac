import { randomBytes } from 'node:crypto';
import { AmqpBus } from '@platform/events';
import { createLogger } from '@platform/http';
import type { TestProject, TestService } from '@platform/testkit';
import { deleteQueues, startWorker, type RunningWorker } from './support/amqp-workers';
import type { ApiClient } from '@platform/testkit';
import { requests, waitForBatch } from './support/batch-helpers';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';
import type { LlmServiceShared } from '../src';

const amqpUrl = process.env.TEST_AMQP_URL;
const describeAmqp = amqpUrl ? describe : describe.skip;
const logger = createLogger('llm-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const suffix = randomBytes(4).toString('hex');
const queues = [`llm.test-limit-batch-${suffix}`, `llm.test-limit-webhooks-${suffix}`];
const LIMIT = 4;

describeAmqp('per-project batch concurrency across worker processes', () => {
  let llm: LlmTestService;
  let svc: TestService<LlmServiceShared>;
  let mainBus: AmqpBus;
  let api: ApiClient;
  let project: TestProject;
  const workers: RunningWorker[] = [];

  beforeAll(async () => {
    mainBus = new AmqpBus({ url: amqpUrl!, logger });
    await mainBus.start();
    llm = await startLlmTestService({
      bus: mainBus,
      llmEnv: {
        LLM_BATCH_CONCURRENCY: String(LIMIT),
        LLM_BATCH_HEARTBEAT_MS: '100',
        LLM_BATCH_STALE_MS: '2000',
        LLM_BATCH_SLOT_LEASE_MS: '2000',
        LLM_BATCH_QUEUE: queues[0],
        LLM_WEBHOOK_QUEUE: queues[1],
      },
    });
    ({ svc, api } = llm);
    svc.deps.relay.start();
    project = await svc.createProject();
    await configureVendors(api, project, ['openai']);
    // Two worker processes on the same database and broker; each calls the stand-in under its own prefix.
    for (const name of ['worker-a', 'worker-b']) {
      workers.push(await startWorker(svc, amqpUrl!, logger, { openaiBaseUrl: `${llm.openai.url}/${name}/v1` }));
    }
  });

  afterAll(async () => {
    for (const { stop, bus } of workers) {
      await stop();
      await bus.close();
    }
    await llm.close();
    await mainBus.close();
    await deleteQueues(amqpUrl!, queues);
  });

  it('when two workers run batches of one project, then at most LLM_BATCH_CONCURRENCY vendor calls are in flight at once and each batch has one result per custom_id', async () => {
    const batches: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const { body } = await api.post('/v1/batch', {
        headers: project.headers,
        body: {
          requests: requests(24, 'gpt-4o-delay-30', name),
        },
      });
      batches.push(body.batchId);
    }
    for (const [index, batchId] of batches.entries()) {
      const done = await waitForBatch(api, project.headers, batchId, ['completed', 'failed']);
      expect(done).toMatchObject({ status: 'completed', requestCount: 24, completedCount: 24, failedCount: 0 });
      const results = await api.get(`/v1/batch/${batchId}/results`, { headers: project.headers });
      expect(results.body.results.map((r: { custom_id: string }) => r.custom_id)).toEqual(
        requests(24, 'gpt-4o-delay-30', ['a', 'b', 'c'][index]).map((r) => r.custom_id),
      );
    }

    const calls = llm.openai.requests.filter((r) => r.path.endsWith('/chat/completions'));
    // Both processes did part of the work, each item was sent once, and together they stayed in bounds.
    expect(calls.filter((r) => r.path.startsWith('/worker-a/')).length).toBeGreaterThan(0);
    expect(calls.filter((r) => r.path.startsWith('/worker-b/')).length).toBeGreaterThan(0);
    expect(calls).toHaveLength(72);
    expect(llm.openai.load.peak).toBeLessThanOrEqual(LIMIT);
    // ... and the bound was used, not undercut.
    expect(llm.openai.load.peak).toBe(LIMIT);
  });
});
