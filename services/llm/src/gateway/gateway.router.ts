import { Router, type RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { tenantOf } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import { parseChatBody } from './chat-request.schema';
import { chatCompletion, formatUsd } from './chat.service';
import { streamChat } from './chat-stream';
import { embeddingsHandler } from '../embeddings/embeddings.router';
import { responsesHandler } from '../responses/responses.router';
import { listModels } from './models.service';
import { retrieveModel } from './model-retrieve';
import { singleCredential } from './single-credential';

/** The OpenAI-compatible routes: the key headers or the single credential; errors in OpenAI's shape (`openAiErrors`, given to the shared stack). */
export function gatewayRouter(deps: ServiceDeps, runtime: LlmShared, keys: RequestHandler[]): Router {
  const auth = [singleCredential(deps.directory), ...keys];
  const router = Router();
  router.post('/chat/completions', ...auth, async (req, res) => {
    const body = parseChatBody(req.body);
    const tenant = tenantOf(req);
    if (body.stream) return streamChat(deps, runtime, tenant, body, res);
    const controller = new AbortController();
    const onClose = () => controller.abort();
    res.on('close', onClose);
    try {
      const { completion, costUsd } = await chatCompletion(deps, runtime, tenant, body, controller.signal);
      if (costUsd !== null) res.setHeader('x-llm-cost-usd', formatUsd(costUsd));
      res.json(completion);
    } finally {
      res.off('close', onClose);
    }
  });
  router.get('/models', ...auth, async (req, res) => {
    res.json(await listModels(deps.db, tenantOf(req)));
  });
  router.get('/models/:model', ...auth, async (req, res) => {
    res.json(await retrieveModel(deps.db, tenantOf(req), String(req.params.model)));
  });
  router.post('/responses', ...auth, responsesHandler(deps, runtime));
  router.post('/embeddings', ...auth, embeddingsHandler(deps, runtime));
  return router;
}
