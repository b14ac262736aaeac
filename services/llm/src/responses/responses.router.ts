import type { RequestHandler } from 'express';
import { tenantOf } from '@platform/tenancy';
import { formatUsd, type Gateway } from '../gateway/chat.service';
import { parseResponsesBody } from './responses-request.schema';
import { createResponse } from './responses.service';
import { streamResponse } from './responses-stream';

/** POST /responses: OpenAI's Responses API, whole or streamed, through the gateway's admission, attempts and usage. */
export function responsesHandler(gateway: Gateway): RequestHandler {
  return async (req, res) => {
    const body = parseResponsesBody(req.body);
    const tenant = tenantOf(req);
    if (body.stream) return streamResponse(gateway, tenant, body, res);
    const controller = new AbortController();
    const onClose = () => controller.abort();
    res.on('close', onClose);
    try {
      const { response, costUsd } = await createResponse(gateway, tenant, body, controller.signal);
      if (costUsd !== null) res.setHeader('x-llm-cost-usd', formatUsd(costUsd));
      res.json(response);
    } finally {
      res.off('close', onClose);
    }
  };
}
