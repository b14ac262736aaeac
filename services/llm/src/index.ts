import type { LegacyServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { BatchWorker } from './batches/batch-worker';
import { llmRuntime } from './llm-runtime';
import { startWebhookConsumer } from './webhooks/webhook-consumer';

export const llmService: LegacyServiceDefinition = {
  name: 'llm',
  defaultPort: 4004,
  migrations,
  createApp,
  /** The batch worker (with its stale-batch sweeper) and the webhook deliverer, as LLM_ROLE says. */
  async startBackground(deps) {
    const runtime = llmRuntime(deps);
    const { role } = runtime.config;
    const worker = role === 'api' ? undefined : new BatchWorker(deps, runtime);
    await worker?.start();
    const stopWebhooks = role === 'worker' ? () => undefined : await startWebhookConsumer(deps, runtime);
    // Runs after the HTTP server has drained, so no completion adds a log any more: the buffered
    // ones are written (waiting for the database, bounded) while the worker winds down.
    return async () => {
      stopWebhooks();
      await Promise.all([
        worker?.stop(),
        runtime.logs.close(runtime.config.logShutdownGraceMs),
        runtime.meters.close(),
      ]);
    };
  },
};
