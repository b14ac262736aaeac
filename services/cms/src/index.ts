import type { ServiceDefinition } from '@platform/runtime';
import { migrations } from '../migrations';
import { createApp } from './app';
import { loadCmsConfig } from './config';
import { startNewsScheduler } from './news/news.scheduler';

export const cmsService: ServiceDefinition = {
  name: 'cms',
  defaultPort: 4003,
  migrations,
  createApp,
  async startBackground(deps) {
    return startNewsScheduler(deps, loadCmsConfig(deps.env));
  },
};

export {
  refreshNews,
  type NewsRefreshDeps,
  type NewsRefreshOptions,
  type NewsRefreshReport,
} from './news/news.refresh';
