import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { byBodyEmail, byIp, createRateLimit, requireKeys, type KeyDirectory } from '@platform/tenancy';
import type { AuthConfig } from './config';

const KEY_HEADERS = ['x-api-key', 'x-secret-key', 'x-tenant-id', 'x-project-id'];

/**
 * For endpoints that need no keys (`/me`, verify-email): when a caller sends key headers
 * anyway, they must be valid, and the bearer or token must then belong to that project.
 */
export function keysWhenSent(directory: KeyDirectory): RequestHandler {
  const keys = requireKeys(directory);
  return (req, res, next) =>
    KEY_HEADERS.some((name) => req.headers[name] !== undefined) ? keys(req, res, next) : next();
}

/** Per client IP and per email (within the project), each with its own counters per endpoint. */
export function ipAndEmailLimits(endpoint: string, config: AuthConfig, deps: ServiceDeps): RequestHandler[] {
  const { windowMs, perIp, perEmail } = config.rateLimit;
  const { redis, logger } = deps;
  return [
    createRateLimit({ name: `auth-${endpoint}-ip`, windowMs, limit: perIp, key: byIp, redis, logger }),
    createRateLimit({ name: `auth-${endpoint}-email`, windowMs, limit: perEmail, key: byBodyEmail, redis, logger }),
  ];
}
