import type { RequestHandler } from 'express';
import { byProject, createRateLimit, requireKeys } from '@platform/tenancy';
import { projectInFlight } from './project-in-flight';
import type { ServiceDeps } from './service-definition';

/**
 * The key check and, after it, the service's per-project rate limit (PROJECT_RATE_LIMIT per
 * PROJECT_RATE_LIMIT_WINDOW_MS, shared through Redis when configured) and its cap on requests
 * in progress at once (PROJECT_MAX_IN_FLIGHT per process): what every endpoint that takes the
 * key headers runs first. Counted after the keys, so no one can spend another project's
 * allowance by naming it.
 */
export function projectKeys(deps: ServiceDeps): RequestHandler[] {
  const { limit, windowMs } = deps.config.projectRateLimit;
  return [
    requireKeys(deps.directory),
    createRateLimit({
      name: `${deps.service}-project`,
      windowMs,
      limit,
      key: byProject,
      redis: deps.redis,
      logger: deps.logger,
    }),
    projectInFlight(deps.config.projectMaxInFlight),
  ];
}
