import {
  projectErasureJob,
  type ServiceDefinition,
  type Job,
  type ServiceDeps,
  type ServiceParts,
} from '@platform/runtime';
import { migrations } from '../migrations';
import { BatchWorker } from './batch-worker/batch-worker';
import { loadLlmConfig } from './config';
import { createLlmShared, type LlmShared } from './llm-shared';
import { openapi } from './openapi';
import { ERASURE_TABLES } from './project-erasure';
import { createRoutes } from './routes';
import { completionLogMetrics } from './usage/completion-log-metrics';
import { startWebhookConsumer } from './webhooks/webhook-consumer';
import { openAiErrors } from './gateway/openai-errors';
import { anthropicErrors } from './messages/anthropic-errors';

/** What HTTP and the jobs share, and this process's running batch worker (none when LLM_ROLE is `api`). */
export interface LlmServiceShared extends LlmShared {
  batchWorker(): BatchWorker | undefined;
}

/**
 * The composition root: config, what HTTP and the jobs share, the route table, and the jobs
 * LLM_ROLE asks for (the batch worker with its stale-batch sweeper, the webhook deliverer).
 */
export function buildLlm(deps: ServiceDeps): ServiceParts<LlmServiceShared> {
  const config = loadLlmConfig(deps.env);
  const shared = createLlmShared(deps, config);
  let running: BatchWorker | undefined;
  const jobs: Job[] = [projectErasureJob(deps, 'llm', ERASURE_TABLES)];
  if (config.role !== 'api') {
    jobs.push({
      name: 'batch-worker',
      // A stopped worker stays stopped: each start makes a new one, as a new process would.
      async start() {
        const worker = new BatchWorker(deps, shared);
        await worker.start();
        running = worker;
        return () => worker.stop();
      },
    });
  }
  if (config.role !== 'worker') {
    jobs.push({
      name: 'webhooks',
      async start() {
        const stop = await startWebhookConsumer(deps, shared);
        return async () => stop();
      },
    });
  }
  return {
    routes: createRoutes(deps, shared),
    openapi,
    errorShapes: [openAiErrors, anthropicErrors],
    metrics: completionLogMetrics(shared.logs),
    jobs,
    shared: { ...shared, batchWorker: () => running },
    // After the HTTP server drained and the jobs stopped, no completion adds a log any more:
    // the buffered ones are written (waiting for the database, bounded), the leases returned and the
    // meters settled.
    close: async () => {
      await shared.admissions.close(); // its leases give back what they hold through the meters
      await Promise.all([shared.logs.close(config.logShutdownGraceMs), shared.meters.close()]);
    },
  };
}

export const llmService: ServiceDefinition<LlmServiceShared> = {
  name: 'llm',
  defaultPort: 4004,
  migrations,
  build: buildLlm,
};
