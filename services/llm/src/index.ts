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
import { createLlmResources, type LlmResources } from './llm-resources';
import { openapi } from './openapi';
import { ERASURE_TABLES } from './project-erasure';
import { createRoutes, errorShapes } from './routes';
import { completionLogMetrics } from './usage/completion-log-metrics';
import { startBatchWebhooks } from './webhooks/webhook-consumer';

/** What HTTP and the jobs share, and this process's running batch worker (none when LLM_ROLE is `api`). */
export interface LlmServiceShared extends LlmResources {
  batchWorker(): BatchWorker | undefined;
}

/**
 * The composition root: config, what HTTP and the jobs share, the route table, and the jobs
 * LLM_ROLE asks for (the batch worker with its stale-batch sweeper, the webhook deliverer).
 */
export function buildLlm(deps: ServiceDeps): ServiceParts<LlmServiceShared> {
  const config = loadLlmConfig(deps.env);
  const resources = createLlmResources(deps, config);
  let running: BatchWorker | undefined;
  const jobs: Job[] = [projectErasureJob(deps, 'llm', ERASURE_TABLES)];
  if (config.role !== 'api') {
    jobs.push({
      name: 'batch-worker',
      // A stopped worker stays stopped: each start makes a new one, as a new process would.
      async start() {
        const { vendors, limits } = resources;
        const worker = new BatchWorker({ ...deps, config, vendors, limits });
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
        const stop = await startBatchWebhooks(deps, config, resources.webhookSlots);
        return async () => stop();
      },
    });
  }
  return {
    routes: createRoutes(deps, resources),
    openapi,
    errorShapes,
    metrics: completionLogMetrics(resources.logs),
    jobs,
    shared: { ...resources, batchWorker: () => running },
    // After the HTTP server drained and the jobs stopped, no completion adds a log any more:
    // the buffered ones are written (waiting for the database, bounded), the leases returned and the
    // meters settled.
    close: async () => {
      await resources.admissions.close(); // its leases give back what they hold through the meters
      await Promise.all([resources.logs.close(config.logShutdownGraceMs), resources.meters.close()]);
    },
  };
}

export const llmService: ServiceDefinition<LlmServiceShared> = {
  name: 'llm',
  defaultPort: 4004,
  migrations,
  build: buildLlm,
};
