import type OpenAI from 'openai';
import type { TokenCounts } from '../usage/price-table';

export type EmbeddingsRequest = OpenAI.EmbeddingCreateParams;

export interface EmbeddingsResult {
  response: OpenAI.CreateEmbeddingResponse;
  tokens: TokenCounts;
}

/**
 * One attempt at OpenAI's embeddings. The encoding is always named, so the SDK hands back
 * OpenAI's answer as it came (it decodes base64 itself only when the caller named none).
 */
export async function openAiEmbeddings(
  client: OpenAI,
  request: EmbeddingsRequest,
  signal?: AbortSignal,
): Promise<EmbeddingsResult> {
  const response = await client.embeddings.create(
    { ...request, encoding_format: request.encoding_format ?? 'float' },
    { maxRetries: 0, signal },
  );
  const prompt = response.usage?.prompt_tokens ?? 0;
  return { response, tokens: { prompt, completion: 0, cached: 0, cacheWrite: 0 } };
}
