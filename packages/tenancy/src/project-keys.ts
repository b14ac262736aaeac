import type { RequestHandler } from 'express';
import type Redis from 'ioredis';
import type { Logger } from 'winston';
import type { KeyDirectory } from './key-directory';
import { headersOnly } from './body-order';
import { requireKeys } from './keys';
import { acceptMemberTokens, type MemberTokenDeps } from './member-token';
import { projectInFlight } from './project-in-flight';
import { byProject, createRateLimit } from './rate-limit';

/** What the key middleware needs of a service's deps (`ServiceDeps` fits). */
export interface ProjectKeysDeps extends MemberTokenDeps {
  service: string;
  /** The per-project limits of the platform configuration (`PlatformConfig` fits). */
  config: { projectRateLimit: { limit: number; windowMs: number }; projectMaxInFlight: number };
  directory: KeyDirectory;
  redis?: Redis;
  logger: Logger;
}

/**
 * The key check and, after it, the service's per-project rate limit (PROJECT_RATE_LIMIT per
 * PROJECT_RATE_LIMIT_WINDOW_MS, shared through Redis when configured) and its cap on requests
 * in progress at once (PROJECT_MAX_IN_FLIGHT per process): what every endpoint that takes the
 * key headers runs first. Counted after the keys, so no one can spend another project's
 * allowance by naming it.
 */
export function projectKeys(deps: ProjectKeysDeps): RequestHandler[] {
  const { limit, windowMs } = deps.config.projectRateLimit;
  return [
    headersOnly(acceptMemberTokens(deps, requireKeys(deps.directory))),
    headersOnly(
      createRateLimit({
        name: `${deps.service}-project`,
        windowMs,
        limit,
        key: byProject,
        redis: deps.redis,
        logger: deps.logger,
      }),
    ),
    headersOnly(projectInFlight(deps.config.projectMaxInFlight)),
  ];
}
