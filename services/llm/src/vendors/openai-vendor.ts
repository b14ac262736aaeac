import OpenAI from 'openai';
import { httpFetch } from './http-fetch';
import type { CompletionInput, VendorClient, VendorCompletion, VendorCredentials, VendorOptions } from './vendor-types';

type OpenAiRole = 'system' | 'user' | 'assistant' | 'developer';

const REASONING_MODEL = /^o\d/;

/** llm_vendor_a through the official `openai` SDK. */
export function openAiClient(credentials: VendorCredentials, options: VendorOptions): VendorClient {
  const client = new OpenAI({
    apiKey: credentials.apiKey,
    organization: credentials.organizationId ?? null,
    baseURL: options.baseUrl ?? null,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    fetch: httpFetch,
  });
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
      const prompt = response.usage?.prompt_tokens ?? 0;
      const completion = response.usage?.completion_tokens ?? 0;
      return {
        completion: response.choices?.[0]?.message?.content ?? '',
        model: response.model || input.model,
        usage: {
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: response.usage?.total_tokens ?? prompt + completion,
        },
      };
    },
    async check(): Promise<void> {
      await client.models.list();
    },
  };
}
