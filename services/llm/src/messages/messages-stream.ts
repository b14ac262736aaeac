import type { Response } from 'express';
import type { Tenant } from '@platform/tenancy';
import { admitChat, type Gateway } from '../gateway/chat.service';
import { relayVendorStream, type StreamWriter } from '../gateway/vendor-stream-relay';
import type { ChatRequest } from '../vendors/chat-types';
import type { VendorClient } from '../vendors/vendor-types';
import { anthropicEventsOf } from './chat-to-messages';
import { messagesEvent, type MessagesEvent, type MessagesEventStream } from './messages-events';
import type { MessagesBody } from './messages-request.schema';
import { toChatBody } from './messages-to-chat';
import { anthropicBody } from './messages.service';

/** One attempt's stream: Claude's own events, or an OpenAI model's chunks as Anthropic's events. */
async function openStream(
  client: VendorClient,
  body: MessagesBody,
  request: ChatRequest,
  signal: AbortSignal,
  beta?: string,
): Promise<MessagesEventStream> {
  if (client.messages) return client.messages.stream(anthropicBody(body, request.model), signal, beta);
  return anthropicEventsOf(await client.chatStream(request, signal), request.model);
}

const frame = ({ event, data }: MessagesEvent) => `event: ${event}\ndata: ${data}\n\n`;

/** Anthropic's events as they come, and its `error` event for a failure. */
const messagesWriter: StreamWriter<MessagesEvent> = {
  frame,
  error: (message) => frame(messagesEvent('error', { error: { type: 'api_error', message } })),
};

/**
 * A streamed Messages answer as Anthropic streams it (message_start ... message_stop), under the
 * gateway's stream rules (`relayVendorStream`). `beta` (the client's `anthropic-beta` header)
 * goes on to Anthropic.
 */
export async function streamMessages(
  gateway: Gateway,
  tenant: Tenant,
  body: MessagesBody,
  res: Response,
  beta?: string,
): Promise<void> {
  await relayVendorStream(gateway, tenant, res, {
    admit: () => admitChat(gateway, tenant, toChatBody(body)),
    open: (client, request, signal) => openStream(client, body, request, signal, beta),
    writer: () => messagesWriter,
  });
}
