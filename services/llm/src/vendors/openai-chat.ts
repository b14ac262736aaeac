import OpenAI, { APIError } from 'openai';
import {
  estimatePromptTokens,
  openAiUsage,
  zeroTokens,
  type ChatChunk,
  type ChatRequest,
  type ChatResult,
  type ChatStream,
  type ChunkText,
} from './chat-types';
import type { TokenCounts } from '../usage/price-table';
import { carriesOutput, chunkTextAsSent } from './openai-chunk-text';
import { serverSentEvents } from './server-sent-events';
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

/**
 * One attempt at a whole completion. The SDK sends it and raises OpenAI's errors; the answer is
 * read from its raw response, parsed once for usage, and its bytes go on to the client as they came.
 */
export async function openAiChat(client: OpenAI, request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
  const response = await client.chat.completions
    .create({ ...request, stream: false }, { ...ONE_ATTEMPT, signal })
    .asResponse();
  const raw = Buffer.from(await response.arrayBuffer());
  const completion = JSON.parse(raw.toString('utf8')) as OpenAI.ChatCompletion;
  return { completion, tokens: tokensOf(completion.usage), raw };
}

/** A chunk's `data`: the chunk, or the error OpenAI reports inside the stream (as the SDK raises it). */
function chunkOf(data: string, headers: Headers): ChatChunk & { usage?: OpenAI.CompletionUsage | null } {
  const parsed = JSON.parse(data) as ChatChunk & { error?: unknown };
  if (parsed?.error) throw new APIError(undefined, parsed.error as object, undefined, headers);
  return parsed;
}

/**
 * OpenAI's own chunks, with usage always requested from OpenAI (the client may not have asked).
 * The SDK sends the request and raises OpenAI's errors; the events are read from its raw response
 * (`asResponse`) by our reader, which costs a fraction of the SDK's per event. `asSent`: the
 * chunks the gateway need not read are passed on as OpenAI wrote them (`chunkTextAsSent`), not
 * parsed and written again.
 */
export async function openAiChatStream(
  client: OpenAI,
  request: ChatRequest,
  signal: AbortSignal | undefined,
  asSent: true,
): Promise<ChatStream<ChatChunk | ChunkText>>;
export async function openAiChatStream(client: OpenAI, request: ChatRequest, signal?: AbortSignal): Promise<ChatStream>;
export async function openAiChatStream(
  client: OpenAI,
  request: ChatRequest,
  signal?: AbortSignal,
  asSent = false,
): Promise<ChatStream<ChatChunk | ChunkText>> {
  const response = await client.chat.completions
    .create({ ...request, stream: true, stream_options: { include_usage: true } }, { ...ONE_ATTEMPT, signal })
    .asResponse();
  if (!response.body) throw new StreamCutError();
  const body = response.body as unknown as AsyncIterable<Uint8Array>;
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
      let done = false;
      // Read to the body's end after [DONE], so that the connection goes back to the pool.
      for await (const { data } of serverSentEvents(body)) {
        if (done) continue;
        if (data.startsWith('[DONE]')) {
          done = true;
          continue;
        }
        const text = asSent ? chunkTextAsSent(data) : null;
        if (text !== null) {
          if (!exact && carriesOutput(text)) tokens.completion++;
          yield text;
          continue;
        }
        const chunk = chunkOf(data, response.headers);
        last = { id: chunk.id, created: chunk.created, model: chunk.model };
        if (chunk.choices.some((c) => c.finish_reason)) finished = true;
        if (chunk.usage) {
          Object.assign(tokens, tokensOf(chunk.usage));
          exact = true;
        }
        // Until OpenAI says, each chunk that carries output counts as a token.
        else if (!exact && chunk.choices.some((c) => c.delta?.content || c.delta?.tool_calls)) tokens.completion++;
        if (chunk.choices.length) {
          // Left out of the chunk as sent (JSON leaves out undefined), as when usage is not asked for.
          if (chunk.usage === null) chunk.usage = undefined;
          yield chunk;
        }
      }
      if (!finished) throw new StreamCutError();
    },
  };
}
