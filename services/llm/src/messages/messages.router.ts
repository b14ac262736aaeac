import type { RequestHandler } from 'express';
import { tenantOf } from '@platform/tenancy';
import { formatUsd, type Gateway } from '../gateway/chat.service';
import { parseMessagesBody } from './messages-request.schema';
import { streamMessages } from './messages-stream';
import { createMessage } from './messages.service';

/** POST /messages: Anthropic's Messages API, whole or streamed, for Claude and OpenAI models. */
export function messagesHandler(gateway: Gateway): RequestHandler {
  return async (req, res) => {
    const body = parseMessagesBody(req.body);
    const tenant = tenantOf(req);
    // Anthropic's beta features the client asks for go on with a Claude request.
    const beta = typeof req.headers['anthropic-beta'] === 'string' ? req.headers['anthropic-beta'] : undefined;
    if (body.stream) return streamMessages(gateway, tenant, body, res, beta);
    const controller = new AbortController();
    const onClose = () => controller.abort();
    res.on('close', onClose);
    try {
      const { message, costUsd } = await createMessage(gateway, tenant, body, controller.signal, beta);
      if (costUsd !== null) res.setHeader('x-llm-cost-usd', formatUsd(costUsd));
      res.json(message);
    } finally {
      res.off('close', onClose);
    }
  };
}
