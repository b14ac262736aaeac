import { errors } from '@platform/tenancy';
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

/** The vendor of a model, or 400 for a model no vendor serves. */
export function routeModel(model: string, path = 'model'): ProviderType {
  const provider = providerOfModel(model);
  if (!provider) {
    throw errors.validation('Unknown model', [
      { path, message: `"${model}" is not a known model (gpt-*, o1*, o3*, o4*, chatgpt-* or claude-*)` },
    ]);
  }
  return provider;
}
