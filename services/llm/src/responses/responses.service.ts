import type { Tenant } from '@platform/tenancy';
import { admitChat, finish, type AdmittedChat, type Gateway } from '../gateway/chat.service';
import { firstSuccess } from '../gateway/chat-attempts';
import { routeGatewayModel } from '../gateway/model-not-found';
import { estimatePromptTokens, type ChatRequest } from '../vendors/chat-types';
import type { ResponsesRequest, ResponsesResult, ResponsesStream } from '../vendors/openai-responses';
import { providerOfModel } from '../vendors/routing';
import type { VendorClient } from '../vendors/vendor-types';
import { chatStreamAsResponses } from './chat-stream-as-responses';
import { responseOfChat } from './response-object';
import type { ResponsesBody } from './responses-request.schema';
import { storedStateIn, storedStateRefused, toChatBody } from './responses-to-chat';

/**
 * Admits a Responses request exactly as a chat request (the same limits, reservation, fallbacks
 * and attempt log), from the Chat Completions request it amounts to. A request that continues a
 * response OpenAI stored can only go to OpenAI: a claude model is refused, claude fallbacks skipped.
 */
export async function admitResponses(gateway: Gateway, tenant: Tenant, body: ResponsesBody): Promise<AdmittedChat> {
  const provider = routeGatewayModel(body.model);
  const stored = storedStateIn(body);
  if (stored && provider === 'anthropic') throw storedStateRefused(stored);
  const chat = await admitChat(gateway, tenant, toChatBody(body));
  if (stored) chat.models = chat.models.filter((model) => providerOfModel(model) === 'openai');
  return chat;
}

/** What goes to OpenAI: the request as sent, less the gateway's own fields and nulls, on the model tried. */
function openAiRequest(body: ResponsesBody, model: string): ResponsesRequest {
  const { stream: _stream, fallbacks: _fallbacks, ...rest } = body;
  const request = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null));
  return { ...request, model } as ResponsesRequest;
}

/** One attempt: OpenAI answers the Responses request itself; another vendor answers its chat translation. */
function attempt(body: ResponsesBody, client: VendorClient, request: ChatRequest, signal: AbortSignal) {
  if (client.responses) return client.responses(openAiRequest(body, request.model), signal);
  return client.chat(request, signal).then(
    ({ completion, tokens }): ResponsesResult => ({
      response: responseOfChat(body, completion, tokens) as unknown as ResponsesResult['response'],
      tokens,
    }),
  );
}

/** One attempt streamed; resolves once the first event is there, so that nothing has gone to the client. */
export async function attemptStream(
  body: ResponsesBody,
  client: VendorClient,
  request: ChatRequest,
  signal: AbortSignal,
): Promise<ResponsesStream> {
  if (client.responsesStream) {
    return client.responsesStream(openAiRequest(body, request.model), estimatePromptTokens(request), signal);
  }
  return chatStreamAsResponses(body, await client.chatStream(request, signal), request.model);
}

/** A whole Response, with what it cost (null for a model without a price). */
export async function createResponse(
  gateway: Gateway,
  tenant: Tenant,
  body: ResponsesBody,
  signal: AbortSignal,
): Promise<{ response: ResponsesResult['response']; costUsd: number | null }> {
  const chat = await admitResponses(gateway, tenant, body);
  try {
    const done = await firstSuccess(gateway, tenant, chat.log, chat.models, chat.request, signal, (client, r) =>
      attempt(body, client, r, signal),
    );
    chat.log.record(done.model, done.provider, done.started, { tokens: done.value.tokens, error: null });
    return { response: done.value.response, costUsd: chat.log.costUsd };
  } finally {
    finish(gateway.limits, tenant, chat);
  }
}
