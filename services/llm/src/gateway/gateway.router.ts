import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { tenantOf } from '@platform/tenancy';
import { parseChatBody } from './chat-request.schema';
import { chatCompletion, formatUsd, type Gateway } from './chat.service';
import { streamChat } from './chat-stream';
import { listModels } from './models.service';

/** The OpenAI-compatible handlers: a chat completion (whole or streamed) and the model list. */
export function gatewayHandlers(db: Knex, gateway: Gateway): Record<'chat' | 'models', RequestHandler> {
  return {
    chat: async (req, res) => {
      const body = parseChatBody(req.body);
      const tenant = tenantOf(req);
      if (body.stream) return streamChat(gateway, tenant, body, res);
      const controller = new AbortController();
      const onClose = () => controller.abort();
      res.on('close', onClose);
      try {
        const { completion, costUsd, raw } = await chatCompletion(gateway, tenant, body, controller.signal);
        if (costUsd !== null) res.setHeader('x-llm-cost-usd', formatUsd(costUsd));
        if (raw) {
          res.setHeader('content-type', 'application/json; charset=utf-8');
          res.end(raw);
        } else {
          res.json(completion);
        }
      } finally {
        res.off('close', onClose);
      }
    },
    models: async (req, res) => {
      res.json(await listModels(db, tenantOf(req)));
    },
  };
}
