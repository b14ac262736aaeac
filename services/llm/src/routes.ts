import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys } from '@platform/tenancy';
import { batchHandlers } from './batches/batches.router';
import { completionHandlers } from './completions/completions.router';
import { gatewayRouter } from './gateway/gateway.router';
import { singleCredential } from './gateway/single-credential';
import { limitHandlers } from './limits/limits.router';
import type { LlmShared } from './llm-shared';
import { anthropicCredential } from './messages/anthropic-credential';
import { createMessageHandler } from './messages/messages.router';
import { providerHandlers } from './providers/providers.router';
import { usageHandlers } from './usage/usage.router';

/**
 * The whole route table of the LLM service. Every route needs the four key headers; the
 * OpenAI-compatible ones (/chat/completions, /models) and Anthropic's /messages also take the single credential.
 */
export function createRoutes(deps: ServiceDeps, runtime: LlmShared): Router {
  const keys = projectKeys(deps);
  const completions = completionHandlers(deps, runtime);
  const providers = providerHandlers(deps, runtime);
  const batches = batchHandlers(deps, runtime);
  const usage = usageHandlers(deps, runtime);
  const limits = limitHandlers(deps, runtime);

  const router = Router();
  // First: a stream's time to first token is the gateway's hot path, and each route passed costs a match.
  router.use(gatewayRouter(deps, runtime, keys));
  // Anthropic's Messages API: also Anthropic's `x-api-key: <public>.<secret>`, on this route only.
  router.post(
    '/messages',
    anthropicCredential(deps.directory),
    singleCredential(deps.directory),
    ...keys,
    createMessageHandler(deps, runtime),
  );
  router.post('/completions', keys, completions.create);

  router.post('/batch', keys, batches.submit);
  router.get('/batch', keys, batches.list);
  router.get('/batch/:batch_id', keys, batches.get);
  router.get('/batch/:batch_id/results', keys, batches.results);
  router.post('/batch/:batch_id/cancel', keys, batches.cancel);

  router.get('/providers', keys, providers.list);
  router.post('/providers', keys, providers.save);
  router.post('/providers/test', keys, providers.test);

  router.get('/logs/:tenant_id/:project_id', keys, usage.logs);
  router.get('/stats/:tenant_id/:project_id', keys, usage.stats);
  router.get('/usage/daily', keys, usage.daily);

  router.get('/limits', keys, limits.getLimits);
  router.put('/limits', keys, limits.putLimits);
  router.get('/fallbacks', keys, limits.getFallbacks);
  router.put('/fallbacks', keys, limits.putFallbacks);
  return router;
}
