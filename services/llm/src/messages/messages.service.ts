import type Anthropic from '@anthropic-ai/sdk';
import type { Tenant } from '@platform/tenancy';
import { firstSuccess } from '../gateway/chat-attempts';
import { admitChat, finish, type Gateway } from '../gateway/chat.service';
import type { TokenCounts } from '../usage/price-table';
import type { ChatRequest } from '../vendors/chat-types';
import type { VendorClient } from '../vendors/vendor-types';
import { toAnthropicMessage } from './chat-to-messages';
import type { MessagesBody } from './messages-request.schema';
import { toChatBody } from './messages-to-chat';

/** What goes to Anthropic: the request as it came, without the gateway's own fields, for the model being tried. */
export function anthropicBody(body: MessagesBody, model: string): Anthropic.MessageCreateParamsNonStreaming {
  const { stream: _stream, fallbacks: _fallbacks, ...rest } = body;
  return { ...rest, model };
}

/** One attempt: Claude gets the request untouched, an OpenAI model gets it translated and answers translated back. */
async function sendMessage(
  client: VendorClient,
  body: MessagesBody,
  request: ChatRequest,
  signal: AbortSignal,
  beta?: string,
): Promise<{ message: Anthropic.Message; tokens: TokenCounts }> {
  if (client.messages) return client.messages.create(anthropicBody(body, request.model), signal, beta);
  const { completion, tokens } = await client.chat(request, signal);
  return { message: toAnthropicMessage(completion, tokens), tokens };
}

/**
 * A whole Messages answer, through the gateway's own admission (limits, budget, fallbacks),
 * attempts (retries, fallbacks) and logs, with what it cost (null for a model without a price).
 * `beta` (the client's `anthropic-beta` header) goes on to Anthropic.
 */
export async function createMessage(
  gateway: Gateway,
  tenant: Tenant,
  body: MessagesBody,
  signal: AbortSignal,
  beta?: string,
): Promise<{ message: Anthropic.Message; costUsd: number | null }> {
  const chat = await admitChat(gateway, tenant, toChatBody(body));
  try {
    const done = await firstSuccess(gateway, tenant, chat.log, chat.models, chat.request, signal, (client, r) =>
      sendMessage(client, body, r, signal, beta),
    );
    chat.log.record(done.model, done.provider, done.started, { tokens: done.value.tokens, error: null });
    return { message: done.value.message, costUsd: chat.log.costUsd };
  } finally {
    finish(gateway.limits, tenant, chat);
  }
}
