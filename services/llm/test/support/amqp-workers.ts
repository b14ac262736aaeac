import path from 'node:path';
import { AmqpBus } from '@platform/events';
import type { ServiceDeps } from '@platform/runtime';
import type { Logger } from '@platform/http';
import type { TestService } from '@platform/testkit';
import { BatchWorker } from '../../src/batches/batch-worker';
import { llmRuntime } from '../../src/llm-runtime';

export interface RunningWorker {
  worker: BatchWorker;
  bus: AmqpBus;
  deps: ServiceDeps;
}

/**
 * A worker as a separate process would run it: its own broker connection, runtime and limiter,
 * the same database. `openaiBaseUrl` lets a test tell its vendor calls apart from others'.
 */
export async function startWorker(
  svc: TestService,
  amqpUrl: string,
  logger: Logger,
  options: { openaiBaseUrl?: string } = {},
): Promise<RunningWorker> {
  const bus = new AmqpBus({ url: amqpUrl, logger });
  await bus.start();
  const config = options.openaiBaseUrl
    ? { ...svc.deps.config, vendors: { ...svc.deps.config.vendors, openaiBaseUrl: options.openaiBaseUrl } }
    : svc.deps.config;
  const deps: ServiceDeps = { ...svc.deps, config, bus };
  const worker = new BatchWorker(deps, llmRuntime(deps));
  await worker.start();
  return { worker, bus, deps };
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
