import type { ProviderType } from './vendor-types';

// text-embedding-*: OpenAI's embedding models (POST /v1/embeddings).
const OPENAI_PREFIXES = ['gpt-', 'o1', 'o3', 'o4', 'chatgpt-', 'text-embedding-'];
const ANTHROPIC_PREFIXES = ['claude-'];

/** The vendor that serves a model, by its name (RESOLUTIONS 6); undefined for an unknown model. */
export function providerOfModel(model: string): ProviderType | undefined {
  if (OPENAI_PREFIXES.some((prefix) => model.startsWith(prefix))) return 'openai';
  if (ANTHROPIC_PREFIXES.some((prefix) => model.startsWith(prefix))) return 'anthropic';
  return undefined;
}
