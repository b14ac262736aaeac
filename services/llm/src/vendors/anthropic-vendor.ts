import Anthropic from '@anthropic-ai/sdk';
import { anthropicChat, anthropicChatStream } from './anthropic-chat';
import { anthropicMessages } from './anthropic-messages';
import { sdkOptions, usageOf } from './sdk-options';
import type { CompletionInput, VendorClient, VendorCompletion, VendorCredentials, VendorOptions } from './vendor-types';

/** llm_vendor_b through the official `@anthropic-ai/sdk`; system messages go to its `system` field. */
export function anthropicClient(credentials: VendorCredentials, options: VendorOptions): VendorClient {
  const client = new Anthropic(sdkOptions(credentials, options));
  return {
    provider: 'anthropic',
    apiKey: credentials.apiKey,
    async complete(input: CompletionInput, signal?: AbortSignal): Promise<VendorCompletion> {
      const system = input.messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content);
      const response = await client.messages.create(
        {
          model: input.model,
          max_tokens: input.max_tokens ?? options.defaultMaxTokens,
          temperature: input.temperature,
          messages: input.messages
            .filter((m) => m.role !== 'system' && m.role !== 'developer')
            .map((m) => ({
              role: m.role === 'assistant' ? ('assistant' as const) : ('user' as const),
              content: m.content,
            })),
          ...(system.length ? { system: system.join('\n\n') } : {}),
        },
        { signal },
      );
      const usage = response.usage;
      // Cached prompt tokens are prompt tokens too, in the OpenAI naming.
      const prompt =
        (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
      return {
        completion: response.content
          .filter((block): block is Anthropic.TextBlock => block.type === 'text')
          .map((block) => block.text)
          .join(''),
        model: response.model || input.model,
        usage: usageOf(prompt, usage?.output_tokens ?? 0),
        cache: { read: usage?.cache_read_input_tokens ?? 0, write: usage?.cache_creation_input_tokens ?? 0 },
      };
    },
    chat: (request, signal) => anthropicChat(client, request, options.defaultMaxTokens, signal),
    chatStream: (request, signal) => anthropicChatStream(client, request, options.defaultMaxTokens, signal),
    messages: anthropicMessages(client),
    async check(): Promise<void> {
      await client.models.list({ limit: 1 });
    },
  };
}
