import OpenAI from 'openai';
import { openAiChat, openAiChatStream } from './openai-chat';
import { openAiEmbeddings } from './openai-embeddings';
import { openAiResponse, openAiResponseStream } from './openai-responses';
import { sdkOptions, usageOf } from './sdk-options';
import type { CompletionInput, VendorClient, VendorCompletion, VendorCredentials, VendorOptions } from './vendor-types';

type OpenAiRole = 'system' | 'user' | 'assistant' | 'developer';

const REASONING_MODEL = /^o\d/;

/** llm_vendor_a through the official `openai` SDK. */
export function openAiClient(credentials: VendorCredentials, options: VendorOptions): VendorClient {
  const client = new OpenAI({ ...sdkOptions(credentials, options), organization: credentials.organizationId ?? null });
  return {
    provider: 'openai',
    apiKey: credentials.apiKey,
    async complete(input: CompletionInput, signal?: AbortSignal): Promise<VendorCompletion> {
      const response = await client.chat.completions.create(
        {
          model: input.model,
          messages: input.messages.map((m) => ({ role: m.role as OpenAiRole, content: m.content })),
          temperature: input.temperature,
          // Reasoning models (o1, o3, o4) refuse max_tokens and take max_completion_tokens.
          ...(input.max_tokens === undefined
            ? {}
            : REASONING_MODEL.test(input.model)
              ? { max_completion_tokens: input.max_tokens }
              : { max_tokens: input.max_tokens }),
        },
        { signal },
      );
      const usage = response.usage;
      return {
        completion: response.choices?.[0]?.message?.content ?? '',
        model: response.model || input.model,
        usage: usageOf(usage?.prompt_tokens ?? 0, usage?.completion_tokens ?? 0, usage?.total_tokens),
        cache: { read: usage?.prompt_tokens_details?.cached_tokens ?? 0, write: 0 },
      };
    },
    chat: (request, signal) => openAiChat(client, request, signal),
    chatStream: (request, signal) => openAiChatStream(client, request, signal),
    chatStreamAsSent: (request, signal) => openAiChatStream(client, request, signal, true),
    responses: (request, signal) => openAiResponse(client, request, signal),
    responsesStream: (request, estimatedPrompt, signal) =>
      openAiResponseStream(client, request, estimatedPrompt, signal),
    embeddings: (request, signal) => openAiEmbeddings(client, request, signal),
    async check(): Promise<void> {
      await client.models.list();
    },
  };
}
