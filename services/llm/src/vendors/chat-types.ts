import type OpenAI from 'openai';
import type { TokenCounts } from '../usage/price-table';

/** A Chat Completions request as the gateway passes it on (OpenAI's shape, `stream` decided per call). */
export type ChatRequest = Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'stream' | 'stream_options'>;
export type ChatCompletion = OpenAI.Chat.ChatCompletion;
export type ChatChunk = OpenAI.Chat.ChatCompletionChunk;
export type ChatMessageParam = OpenAI.Chat.ChatCompletionMessageParam;

export interface ChatResult {
  completion: ChatCompletion;
  tokens: TokenCounts;
  /** The vendor's answer as it came, when `completion` is exactly it: sent on as is, not serialised again. */
  raw?: Buffer;
}

/** An OpenAI chunk's JSON as OpenAI wrote it, passed on unparsed: it says nothing the gateway reads. */
export type ChunkText = string;

/**
 * A vendor stream translated into OpenAI chunks. `tokens` grows as the stream goes, so a stream
 * cut short still tells what it used; `exact` turns true once the vendor has reported its usage.
 */
export interface ChatStream<C = ChatChunk> extends AsyncIterable<C> {
  readonly tokens: TokenCounts;
  readonly exact: boolean;
  /** The usage chunk OpenAI sends last when asked (`choices: []`), built from `tokens`. */
  usageChunk(): ChatChunk;
}

export const zeroTokens = (): TokenCounts => ({ prompt: 0, completion: 0, cached: 0, cacheWrite: 0 });

/** Usage in OpenAI's response shape. */
export function openAiUsage(tokens: TokenCounts): OpenAI.CompletionUsage {
  return {
    prompt_tokens: tokens.prompt,
    completion_tokens: tokens.completion,
    total_tokens: tokens.prompt + tokens.completion,
    prompt_tokens_details: { cached_tokens: tokens.cached },
  };
}

const promptSizes = new WeakMap<ChatRequest['messages'], number>();

/**
 * The characters of a request's messages as JSON, worked out once per request: admission bounds
 * the cost by it, and each vendor stream estimates its prompt by it.
 */
export function promptCharacters(request: ChatRequest): number {
  let size = promptSizes.get(request.messages);
  if (size === undefined) promptSizes.set(request.messages, (size = JSON.stringify(request.messages).length));
  return size;
}

/** A rough prompt size (about 4 characters a token) for a stream cut off before the vendor said. */
export function estimatePromptTokens(request: ChatRequest): number {
  return Math.ceil(promptCharacters(request) / 4);
}
