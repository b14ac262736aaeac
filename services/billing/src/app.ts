import type { Express } from 'express';
import { readinessOf, type ServiceDeps } from '@platform/runtime';
import { createHttpApp } from '@platform/http';
import { loadBillingConfig, type BillingConfig } from './config';
import { openapi } from './openapi';
import { createRoutes } from './routes';

export function createApp(deps: ServiceDeps, config: BillingConfig = loadBillingConfig(deps.env)): Express {
  return createHttpApp({
    service: 'billing',
    logger: deps.logger,
    openapi,
    routes: createRoutes(deps, config),
    readiness: readinessOf(deps),
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
  });
}
