import type { Response } from 'express';
import type { Tenant } from '@platform/tenancy';
import type { Gateway } from '../gateway/chat.service';
import { relayVendorStream, type StreamWriter } from '../gateway/vendor-stream-relay';
import type { ResponsesEvent } from '../vendors/openai-responses';
import type { ResponsesBody } from './responses-request.schema';
import { admitResponses, attemptStream } from './responses.service';

const frame = (type: string, json: string) => `event: ${type}\ndata: ${json}\n\n`;

/** OpenAI's Responses events as they come, and its `error` event (numbered after the last sent) for a failure. */
const responsesWriter: StreamWriter<ResponsesEvent> = {
  frame: (event) => frame(event.type, event.json),
  error: (message, sent) =>
    frame(
      'error',
      JSON.stringify({ type: 'error', code: 'VENDOR_ERROR', message, param: null, sequence_number: sent }),
    ),
};

/**
 * A streamed Response as OpenAI streams it (from response.created to response.completed with the
 * usage), under the gateway's stream rules (`relayVendorStream`); the vendor's own failure event
 * counts as the stream failing.
 */
export async function streamResponse(
  gateway: Gateway,
  tenant: Tenant,
  body: ResponsesBody,
  res: Response,
): Promise<void> {
  await relayVendorStream(gateway, tenant, res, {
    admit: () => admitResponses(gateway, tenant, body),
    open: (client, request, signal) => attemptStream(body, client, request, signal),
    writer: () => responsesWriter,
  });
}
