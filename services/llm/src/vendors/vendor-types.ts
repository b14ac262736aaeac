import type { AnthropicMessagesApi } from './anthropic-messages';
import type { ChatChunk, ChatRequest, ChatResult, ChatStream, ChunkText } from './chat-types';
import type { EmbeddingsRequest, EmbeddingsResult } from './openai-embeddings';
import type { ResponsesRequest, ResponsesResult, ResponsesStream } from './openai-responses';

/** The two vendors, by their canonical names (RESOLUTIONS: llm_vendor_a / llm_vendor_b are aliases). */
export const PROVIDER_TYPES = ['openai', 'anthropic'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export const PROVIDER_ALIASES: Record<string, ProviderType> = {
  openai: 'openai',
  llm_vendor_a: 'openai',
  anthropic: 'anthropic',
  llm_vendor_b: 'anthropic',
};

export interface ChatMessage {
  role: string;
  content: string;
}

export interface CompletionInput {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature: number;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What either vendor answered, in the OpenAI naming. */
export interface VendorCompletion {
  completion: string;
  model: string;
  usage: Usage;
  /** Of the prompt tokens: read from and written to the vendor's cache (priced apart). */
  cache?: { read: number; write: number };
}

/** A project's SDK client for one vendor. */
export interface VendorClient {
  provider: ProviderType;
  complete(input: CompletionInput, signal?: AbortSignal): Promise<VendorCompletion>;
  /** One attempt at a Chat Completions request, answered in OpenAI's shape (the gateway retries). */
  chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult>;
  /** The same as OpenAI chunks; resolves once the vendor has accepted the request. */
  chatStream(request: ChatRequest, signal?: AbortSignal): Promise<ChatStream>;
  /** The same for a client that reads OpenAI's chunks: those the gateway need not read stay as sent (OpenAI only). */
  chatStreamAsSent?(request: ChatRequest, signal?: AbortSignal): Promise<ChatStream<ChatChunk | ChunkText>>;
  /** Anthropic's own Messages API, untranslated (Anthropic only). */
  messages?: AnthropicMessagesApi;
  /** OpenAI's own Responses API (OpenAI only; other vendors answer it through `chat`, translated). */
  responses?(request: ResponsesRequest, signal?: AbortSignal): Promise<ResponsesResult>;
  /** The same streamed; `estimatedPrompt` counts the prompt until the vendor reports it. */
  responsesStream?(request: ResponsesRequest, estimatedPrompt: number, signal?: AbortSignal): Promise<ResponsesStream>;
  /** Embeddings (OpenAI only: Anthropic has none). */
  embeddings?(request: EmbeddingsRequest, signal?: AbortSignal): Promise<EmbeddingsResult>;
  /** One cheap authenticated call; throws the vendor's error when the key is refused. */
  check(): Promise<void>;
  /** The key, kept only to scrub it out of any vendor message. */
  readonly apiKey: string;
}

export interface VendorCredentials {
  apiKey: string;
  organizationId?: string | null;
}

export interface VendorOptions {
  baseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
  defaultMaxTokens: number;
}
