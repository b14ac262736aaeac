import type OpenAI from 'openai';
import {
  estimatePromptTokens,
  openAiUsage,
  zeroTokens,
  type ChatChunk,
  type ChatRequest,
  type ChatResult,
  type ChatStream,
} from './chat-types';
import type { TokenCounts } from '../usage/price-table';
import { StreamCutError } from './vendor-errors';

function tokensOf(usage: OpenAI.CompletionUsage | null | undefined): TokenCounts {
  return {
    prompt: usage?.prompt_tokens ?? 0,
    completion: usage?.completion_tokens ?? 0,
    cached: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWrite: 0,
  };
}

// The gateway retries and falls back itself, so each SDK call is one attempt.
const ONE_ATTEMPT = { maxRetries: 0 } as const;

export async function openAiChat(client: OpenAI, request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
  const completion = await client.chat.completions.create({ ...request, stream: false }, { ...ONE_ATTEMPT, signal });
  return { completion, tokens: tokensOf(completion.usage) };
}

/** OpenAI's own chunks, with usage always requested from OpenAI (the client may not have asked). */
export async function openAiChatStream(
  client: OpenAI,
  request: ChatRequest,
  signal?: AbortSignal,
): Promise<ChatStream> {
  const stream = await client.chat.completions.create(
    { ...request, stream: true, stream_options: { include_usage: true } },
    { ...ONE_ATTEMPT, signal },
  );
  const tokens = zeroTokens();
  tokens.prompt = estimatePromptTokens(request);
  let exact = false;
  let last: Pick<ChatChunk, 'id' | 'created' | 'model'> = { id: '', created: 0, model: request.model };
  return {
    get tokens() {
      return tokens;
    },
    get exact() {
      return exact;
    },
    usageChunk: () => ({ ...last, object: 'chat.completion.chunk', choices: [], usage: openAiUsage(tokens) }),
    async *[Symbol.asyncIterator]() {
      let finished = false;
      for await (const chunk of stream) {
        last = { id: chunk.id, created: chunk.created, model: chunk.model };
        if (chunk.choices.some((c) => c.finish_reason)) finished = true;
        if (chunk.usage) {
          Object.assign(tokens, tokensOf(chunk.usage));
          exact = true;
        }
        // Until OpenAI says, each chunk that carries output counts as a token.
        else if (!exact && chunk.choices.some((c) => c.delta?.content || c.delta?.tool_calls)) tokens.completion++;
        if (chunk.choices.length) {
          const { usage: _usage, ...rest } = chunk;
          yield rest as ChatChunk;
        }
      }
      if (!finished) throw new StreamCutError();
    },
  };
}
