import type { Express } from 'express';
import { readinessOf, type ServiceDeps } from '@platform/runtime';
import { createHttpApp } from '@platform/http';
import { openapi } from './openapi';
import { llmRuntime } from './llm-runtime';
import { createRoutes } from './routes';
import { completionLogMetrics } from './usage/completion-log-metrics';

export function createApp(deps: ServiceDeps): Express {
  return createHttpApp({
    service: 'llm',
    logger: deps.logger,
    openapi,
    routes: createRoutes(deps),
    readiness: readinessOf(deps),
    bodyLimit: deps.config.bodyLimit,
    trustProxy: deps.config.trustProxy,
    metrics: completionLogMetrics(llmRuntime(deps).logs),
  });
}
