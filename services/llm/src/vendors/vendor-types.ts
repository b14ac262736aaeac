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
}

/** A project's SDK client for one vendor. */
export interface VendorClient {
  provider: ProviderType;
  complete(input: CompletionInput, signal?: AbortSignal): Promise<VendorCompletion>;
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
