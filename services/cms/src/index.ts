import { startRecurringJob, type LegacyServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { cmsRuntime } from './cms-runtime';
import { startNewsScheduler } from './news/news.scheduler';
import { runContentSchedule } from './scheduling/content-schedule.job';
import { startWebhookDelivery } from './webhooks/webhook-delivery.consumer';

export const cmsService: LegacyServiceDefinition = {
  name: 'cms',
  defaultPort: 4003,
  migrations,
  createApp,
  /**
   * The news scheduler, the content schedule (publishAt/unpublishAt) and the content webhook
   * deliverer; the stop function also ends the pattern checker's and the content validator's threads.
   */
  async startBackground(deps) {
    const runtime = cmsRuntime(deps);
    const stopNews = startNewsScheduler(deps, runtime.config);
    const stopSchedule = startRecurringJob({
      name: 'content schedule',
      intervalMs: runtime.config.scheduleIntervalMs,
      firstRunMs: 0,
      logger: deps.logger,
      run: async () => {
        if ((await runContentSchedule(deps.db, runtime.config.scheduleBatchSize)) > 0) deps.relay.kick();
      },
    });
    const stopWebhooks = await startWebhookDelivery(deps, runtime);
    return async () => {
      stopWebhooks();
      await Promise.all([stopNews(), stopSchedule()]);
      await runtime.patternChecker.close();
      await runtime.contentValidator.close();
    };
  },
};

export {
  refreshNews,
  type NewsRefreshDeps,
  type NewsRefreshOptions,
  type NewsRefreshReport,
} from './news/news.refresh';
