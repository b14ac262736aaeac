import path from 'node:path';
import { AmqpBus } from '@platform/events';
import { assembleService, type ServiceDeps } from '@platform/runtime';
import type { Logger } from '@platform/http';
import type { TestService } from '@platform/testkit';
import { llmService, type LlmServiceShared } from '../../src';
import type { BatchWorker } from '../../src/batch-worker/batch-worker';

export interface RunningWorker {
  worker: BatchWorker;
  bus: AmqpBus;
  deps: ServiceDeps;
  /** Stops the worker's jobs and releases what its build made (the clean stop of a process). */
  stop(): Promise<void>;
}

/**
 * A worker as a separate process would run it (LLM_ROLE=worker): its own broker connection,
 * build and limiter, the same database. `openaiBaseUrl` lets a test tell its vendor calls apart.
 */
export async function startWorker(
  svc: TestService<LlmServiceShared>,
  amqpUrl: string,
  logger: Logger,
  options: { openaiBaseUrl?: string } = {},
): Promise<RunningWorker> {
  const bus = new AmqpBus({ url: amqpUrl, logger });
  await bus.start();
  const env = {
    ...svc.deps.env,
    LLM_ROLE: 'worker',
    ...(options.openaiBaseUrl ? { OPENAI_BASE_URL: options.openaiBaseUrl } : {}),
  };
  const deps: ServiceDeps = { ...svc.deps, env, bus };
  const replica = assembleService(llmService, deps);
  const stopJobs = await replica.startJobs();
  const stop = async () => {
    await stopJobs();
    await replica.close();
  };
  return { worker: replica.parts.shared.batchWorker()!, bus, deps, stop };
}

/** Removes a test file's durable queues (with their retry and dead-letter queues) from the broker. */
export async function deleteQueues(amqpUrl: string, queues: string[]): Promise<void> {
  const eventsDir = path.dirname(require.resolve('@platform/events/package.json'));
  // amqplib is a dependency of @platform/events, not of this service: load it from there.
  const amqp = (await import(require.resolve('amqplib', { paths: [eventsDir] }))) as typeof import('amqplib');
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  for (const queue of queues) {
    for (const name of [queue, `${queue}.retry`, `${queue}.dlq`]) await channel.deleteQueue(name);
  }
  await connection.close();
}
