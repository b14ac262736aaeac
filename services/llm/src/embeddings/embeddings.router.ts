import type { RequestHandler } from 'express';
import { tenantOf } from '@platform/tenancy';
import { formatUsd, type Gateway } from '../gateway/chat.service';
import { parseEmbeddingsBody } from './embeddings-request.schema';
import { createEmbeddings } from './embeddings.service';

/** POST /embeddings: OpenAI's embeddings, float or base64, through the gateway's admission, attempts and usage. */
export function embeddingsHandler(gateway: Gateway): RequestHandler {
  return async (req, res) => {
    const body = parseEmbeddingsBody(req.body);
    const controller = new AbortController();
    const onClose = () => controller.abort();
    res.on('close', onClose);
    try {
      const { response, costUsd } = await createEmbeddings(gateway, tenantOf(req), body, controller.signal);
      if (costUsd !== null) res.setHeader('x-llm-cost-usd', formatUsd(costUsd));
      res.json(response);
    } finally {
      res.off('close', onClose);
    }
  };
}
