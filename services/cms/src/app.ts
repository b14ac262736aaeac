import type { Express } from 'express';
import { readinessOf, type ServiceDeps } from '@platform/runtime';
import { createHttpApp } from '@platform/http';
import { openapi } from './openapi';
import { createRoutes } from './routes';

export function createApp(deps: ServiceDeps): Express {
  return createHttpApp({
    service: 'cms',
    logger: deps.logger,
    openapi,
    routes: createRoutes(deps),
    readiness: readinessOf(deps),
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
  });
}
