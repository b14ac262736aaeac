import type { ServiceDefinition, ServiceDeps, ServiceParts } from '@platform/runtime';
import { migrations } from '../migrations';
import { loadTemplateConfig, type TemplateConfig } from './config';
import { openapi } from './openapi';
import { createRoutes } from './routes';

/** What the HTTP side and the jobs share, built once in `build` (here only the config). */
export interface TemplateShared {
  config: TemplateConfig;
}

/** The composition root: read config, build what is shared, return routes, jobs and close. */
export function buildTemplate(deps: ServiceDeps): ServiceParts<TemplateShared> {
  const config = loadTemplateConfig(deps.env);
  return {
    routes: createRoutes(deps, config),
    openapi,
    jobs: [],
    shared: { config },
    close: async () => undefined,
  };
}

export const templateService: ServiceDefinition<TemplateShared> = {
  name: 'template',
  defaultPort: 4099,
  migrations,
  build: buildTemplate,
};
