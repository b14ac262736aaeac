import type { RequestHandler } from 'express';
import type { ServiceDeps } from '@platform/runtime';
import { tenantOf } from '@platform/tenancy';
import { formatUsd } from '../gateway/chat.service';
import type { LlmShared } from '../llm-shared';
import { parseResponsesBody } from './responses-request.schema';
import { createResponse } from './responses.service';
import { streamResponse } from './responses-stream';

/** POST /responses: OpenAI's Responses API, whole or streamed, through the gateway's admission, attempts and usage. */
export function responsesHandler(deps: Pick<ServiceDeps, 'db' | 'secrets'>, runtime: LlmShared): RequestHandler {
  return async (req, res) => {
    const body = parseResponsesBody(req.body);
    const tenant = tenantOf(req);
    if (body.stream) return streamResponse(deps, runtime, tenant, body, res);
    const controller = new AbortController();
    const onClose = () => controller.abort();
    res.on('close', onClose);
    try {
      const { response, costUsd } = await createResponse(deps, runtime, tenant, body, controller.signal);
      if (costUsd !== null) res.setHeader('x-llm-cost-usd', formatUsd(costUsd));
      res.json(response);
    } finally {
      res.off('close', onClose);
    }
  };
}
