import type { Request, RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { byBodyEmail, byIp, createRateLimit, headersOnly, requireKeys, type KeyDirectory } from '@platform/tenancy';
import type { AuthConfig } from './config';

const KEY_HEADERS = ['x-api-key', 'x-secret-key', 'x-tenant-id', 'x-project-id'];

/**
 * For endpoints that need no keys (`/me`, verify-email): when a caller sends key headers
 * anyway, they must be valid, and the bearer or token must then belong to that project.
 */
export function keysWhenSent(directory: KeyDirectory): RequestHandler {
  const keys = requireKeys(directory);
  return headersOnly((req, res, next) =>
    KEY_HEADERS.some((name) => req.headers[name] !== undefined) ? keys(req, res, next) : next(),
  );
}

/**
 * The client's address within the project: a project's sign-ins all come from its own backend,
 * so counted across projects one project's failures would use up every other's allowance.
 */
const byIpInProject = (req: Request): string => `${req.tenant?.projectId ?? ''}:${byIp(req)}`;

/** Per client IP and per email, each within the project, each with its own counters per endpoint. */
export function ipAndEmailLimits(endpoint: string, config: AuthConfig, deps: ServiceDeps): RequestHandler[] {
  const { windowMs, perIp, perEmail } = config.rateLimit;
  const { redis, logger } = deps;
  return [
    headersOnly(
      createRateLimit({ name: `auth-${endpoint}-ip`, windowMs, limit: perIp, key: byIpInProject, redis, logger }),
    ),
    createRateLimit({ name: `auth-${endpoint}-email`, windowMs, limit: perEmail, key: byBodyEmail, redis, logger }),
  ];
}
