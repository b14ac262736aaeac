import {
  projectErasureJob,
  startRecurringJob,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceParts,
} from '@platform/runtime';
import { migrations } from '../migrations';
import { loadCmsConfig } from './config';
import { ProjectSlots } from '@platform/limits';
import type { CmsShared } from './cms-shared';
import { ContentValidator } from './content-types/content-validation';
import { PatternChecker } from './content-types/pattern-checker';
import { startNewsScheduler } from './news/news.scheduler';
import { openapi } from './openapi';
import { ERASURE_TABLES } from './project-erasure';
import { createRoutes } from './routes';
import { runContentSchedule } from './content/content-schedule.job';
import { startWebhookDelivery } from './webhooks/webhook-delivery.consumer';

async function closeThreads(shared: CmsShared): Promise<void> {
  await shared.patternChecker.close();
  await shared.contentValidator.close();
}

/**
 * The composition root: config, the pattern checker and the content validator (both threads),
 * the webhook slots, the route table and the jobs (news refresh, content schedule, webhooks).
 */
export function buildCms(deps: ServiceDeps): ServiceParts<CmsShared> {
  const config = loadCmsConfig(deps.env);
  const shared: CmsShared = {
    config,
    patternChecker: new PatternChecker({ budgetMs: config.patternCompileBudgetMs, logger: deps.logger }),
    contentValidator: new ContentValidator(config.validationBudget),
    webhookSlots: new ProjectSlots({
      total: deps.config.webhooks.slots,
      perProject: deps.config.webhooks.projectSlots,
    }),
  };
  return {
    routes: createRoutes(deps, shared),
    openapi,
    shared,
    jobs: [
      // First to start, last to stop: with the jobs stopped, schemas with patterns get 503.
      { name: 'threads', start: async () => () => closeThreads(shared) },
      { name: 'news', start: async () => startNewsScheduler(deps, config) },
      {
        name: 'content schedule',
        start: async () =>
          startRecurringJob({
            name: 'content schedule',
            intervalMs: config.scheduleIntervalMs,
            firstRunMs: 0,
            logger: deps.logger,
            run: async () => {
              await runContentSchedule(deps.db, deps.relay, config.scheduleBatchSize);
            },
          }),
      },
      {
        name: 'webhooks',
        async start() {
          const stop = await startWebhookDelivery(deps, shared);
          return async () => stop();
        },
      },
      projectErasureJob(deps, 'cms', ERASURE_TABLES),
    ],
    close: () => closeThreads(shared),
  };
}

export const cmsService: ServiceDefinition<CmsShared> = {
  name: 'cms',
  defaultPort: 4003,
  migrations,
  build: buildCms,
};

export {
  refreshNews,
  type NewsRefreshDeps,
  type NewsRefreshOptions,
  type NewsRefreshReport,
} from './news/news.refresh';
