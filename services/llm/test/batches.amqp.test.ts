import { randomBytes } from 'node:crypto';
import { AmqpBus } from '@platform/events';
import { createLogger } from '@platform/http';
import { waitFor, webhookReceiver, type TestProject, type TestService } from '@platform/testkit';
import { verifyWebhookSignature } from '@platform/webhooks';
import { deleteQueues, startWorker, type RunningWorker } from './support/amqp-workers';
import type { ApiClient } from '@platform/testkit';
import { requests, resultCount, waitForBatch, webhookEvents } from './support/batch-helpers';
import { configureVendors, startLlmTestService, type LlmTestService } from './support/llm-test-service';
import type { LlmServiceShared } from '../src';

const amqpUrl = process.env.TEST_AMQP_URL;
const describeAmqp = amqpUrl ? describe : describe.skip;
const logger = createLogger('llm-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const suffix = randomBytes(4).toString('hex');
const queues = [`llm.test-batch-${suffix}`, `llm.test-webhooks-${suffix}`];

describeAmqp('batches through RabbitMQ', () => {
  let llm: LlmTestService;
  let svc: TestService<LlmServiceShared>;
  let mainBus: AmqpBus;
  let api: ApiClient;
  let project: TestProject;
  let stopWebhooks: () => Promise<void>;
  const workers: RunningWorker[] = [];

  beforeAll(async () => {
    mainBus = new AmqpBus({ url: amqpUrl!, logger });
    await mainBus.start();
    llm = await startLlmTestService({
      bus: mainBus,
      llmEnv: {
        // The webhook deliverer only: batch items are left to the workers the tests start.
        LLM_ROLE: 'api',
        LLM_BATCH_CONCURRENCY: '4',
        LLM_BATCH_HEARTBEAT_MS: '100',
        LLM_BATCH_STALE_MS: '600',
        LLM_BATCH_SLOT_LEASE_MS: '600',
        LLM_BATCH_SWEEP_INTERVAL_MS: '200',
        LLM_BATCH_QUEUE: queues[0],
        LLM_WEBHOOK_QUEUE: queues[1],
        LLM_WEBHOOK_RETRY_DELAYS_MS: '50,100,150,200,250',
      },
      env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
    });
    ({ svc, api } = llm);
    svc.deps.relay.start();
    stopWebhooks = await svc.startJobs();
    project = await svc.createProject();
    await configureVendors(api, project, ['openai']);
  });

  afterAll(async () => {
    for (const { stop, bus } of workers) {
      await stop();
      await bus.close();
    }
    await stopWebhooks();
    await llm.close();
    await mainBus.close();
    await deleteQueues(amqpUrl!, queues);
  });

  it('when a batch is submitted, then a worker consuming from RabbitMQ completes it and the webhook is delivered signed', async () => {
    workers.push(await startWorker(svc, amqpUrl!, logger));
    const receiver = await webhookReceiver(project.webhookSecret);
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: requests(5, 'gpt-4o-mini'),
        webhook_url: `${receiver.url}/done`,
      },
    });
    const done = await waitForBatch(api, project.headers, body.batchId, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', completedCount: 5, failedCount: 0 });
    const hook = await waitFor(() => receiver.requests[0]);
    expect(hook.body).toMatchObject({
      event: 'batch.completed',
      batchId: body.batchId,
      status: 'completed',
      requestCount: 5,
    });
    expect(
      verifyWebhookSignature(project.webhookSecret, hook.rawBody, String(hook.headers['x-webhook-signature'])),
    ).toBe(true);
    await receiver.close();
  });

  it('when the worker is killed mid-batch and a new one starts, then nothing is lost or duplicated: one result and one log per custom_id', async () => {
    const receiver = await webhookReceiver(project.webhookSecret);
    const { body } = await api.post('/v1/batch', {
      headers: project.headers,
      body: {
        requests: requests(40, 'gpt-4o-delay-50', 'crash'),
        webhook_url: receiver.url,
      },
    });
    await waitFor(() => resultCount(svc.deps.db, body.batchId).then((n) => n >= 8), { intervalMs: 5 });

    const victim = workers.pop()!;
    await victim.worker.kill();
    await victim.bus.close();
    const atCrash = await resultCount(svc.deps.db, body.batchId);
    expect(atCrash).toBeLessThan(40);
    // The killed worker left claims behind: the next one must take them over once they are stale.
    const abandoned = await svc.deps
      .db('batch_items')
      .where({ batch_id: body.batchId, status: 'processing' })
      .count({ count: '*' });
    expect(Number(abandoned[0].count)).toBeGreaterThan(0);

    workers.push(await startWorker(svc, amqpUrl!, logger));
    const done = await waitForBatch(api, project.headers, body.batchId, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', requestCount: 40, completedCount: 40, failedCount: 0 });

    const results = await api.get(`/v1/batch/${body.batchId}/results`, { headers: project.headers });
    const ids = results.body.results.map((r: { custom_id: string }) => r.custom_id);
    expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => `crash-${i}`));
    const items = await svc.deps.db('batch_items').where({ batch_id: body.batchId }).select('status');
    expect(items.every((i: { status: string }) => i.status === 'succeeded')).toBe(true);
    const logs = await svc.deps.db('completion_logs').where({ batch_id: body.batchId }).select('status');
    expect(logs).toHaveLength(40);

    await waitFor(() => receiver.requests[0]);
    // One finished event, handled, and no retry queued: no second webhook is to come.
    await waitFor(async () => (await webhookEvents(svc.deps.db, body.batchId)).every((event) => event.handled));
    expect(await webhookEvents(svc.deps.db, body.batchId)).toEqual([{ type: 'llm.batch.finished', handled: true }]);
    expect(receiver.requests).toHaveLength(1);
    await receiver.close();
  });
});
