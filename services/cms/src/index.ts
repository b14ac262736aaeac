import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { cmsRuntime } from './cms-runtime';
import { startNewsScheduler } from './news/news.scheduler';

export const cmsService: ServiceDefinition = {
  name: 'cms',
  defaultPort: 4003,
  migrations,
  createApp,
  /** The news scheduler; its stop function also ends the pattern checker's and the content validator's threads. */
  async startBackground(deps) {
    const runtime = cmsRuntime(deps);
    const stopNews = startNewsScheduler(deps, runtime.config);
    return async () => {
      await stopNews();
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
