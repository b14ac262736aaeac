import { Router } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { projectKeys } from '@platform/tenancy';
import { batchHandlers } from './batches/batches.router';
import { completionHandlers } from './completions/completions.router';
import { embeddingsHandler } from './embeddings/embeddings.router';
import { gatewayHandlers } from './gateway/gateway.router';
import { retrieveModelHandler } from './gateway/model-retrieve';
import { openAiErrors } from './gateway/openai-errors';
import { singleCredential } from './gateway/single-credential';
import { limitHandlers } from './limits/limits.router';
import type { LlmResources } from './llm-resources';
import { providerHandlers } from './providers/providers.router';
import { responsesHandler } from './responses/responses.router';
import { usageHandlers } from './usage/usage.router';

/**
 * The OpenAI-compatible routes' errors, wherever raised (the flood refusal, reading the body, the
 * route), take OpenAI's shape: a route added below with `openAi` adds its full path here.
 */
export const errorShapes = [openAiErrors(['/v1/chat/completions', '/v1/models', '/v1/responses', '/v1/embeddings'])];

/**
 * The whole route table of the LLM service. Every route needs the four key headers; the
 * OpenAI-compatible ones (`openAi`) also take the single credential, and answer errors in
 * OpenAI's shape (`errorShapes`).
 */
export function createRoutes(deps: ServiceDeps, resources: LlmResources): Router {
  const { db, relay } = deps;
  const { config, vendors, limits, logs, streams } = resources;
  const keys = projectKeys(deps);
  const openAi = [singleCredential(deps.directory), ...keys];
  const gatewayParts = { vendors, limits, logs, streams, settings: config };
  const gateway = gatewayHandlers(db, gatewayParts);
  const completions = completionHandlers(vendors, limits, logs);
  const providers = providerHandlers(db, vendors);
  const batches = batchHandlers(db, relay, { maxRequests: config.batchMaxRequests, limitsOn: limits.enabled });
  const usage = usageHandlers(db, logs);
  const limitRoutes = limitHandlers(db, limits, config.gatewayMaxFallbacks);

  const router = Router();
  // First: a stream's time to first token is the gateway's hot path, and each route passed costs a match.
  router.post('/chat/completions', ...openAi, gateway.chat);
  router.get('/models', ...openAi, gateway.models);
  router.get('/models/:model', ...openAi, retrieveModelHandler(db));
  router.post('/responses', ...openAi, responsesHandler(gatewayParts));
  router.post('/embeddings', ...openAi, embeddingsHandler(gatewayParts));
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

  router.get('/limits', keys, limitRoutes.getLimits);
  router.put('/limits', keys, limitRoutes.putLimits);
  router.get('/fallbacks', keys, limitRoutes.getFallbacks);
  router.put('/fallbacks', keys, limitRoutes.putFallbacks);
  return router;
}
