import {
  eitherForm,
  integer,
  listOf,
  modelName,
  oneOf,
  vendorRequest,
  word,
  parseVendorRequest,
} from '../gateway/vendor-request-fields';

/** OpenAI's embeddings request, plus `fallbacks` (other embedding models tried in turn). */
export interface EmbeddingsBody {
  model: string;
  input: string | string[] | number[] | number[][];
  dimensions?: number;
  encoding_format?: 'float' | 'base64';
  user?: string;
  fallbacks?: string[];
}

const tokenArray = listOf(integer(0), 8192).min(1);

/** OpenAI's embeddings request (at most 2048 inputs, as OpenAI takes them). */
export const embeddingsRequestSchema = vendorRequest<EmbeddingsBody>({
  model: modelName.required(),
  // Only that no form matches is told, so each form stops at its first problem.
  input: eitherForm(word(1_000_000), listOf(word(1_000_000), 2048).min(1), tokenArray, listOf(tokenArray, 2048).min(1))
    .prefs({ abortEarly: true })
    .required(),
  dimensions: integer(1, 10_000),
  encoding_format: oneOf('float', 'base64'),
  user: word(512),
  fallbacks: listOf(modelName, 20).description(
    'extension: embedding models tried in turn when the model fails (429, 5xx, unreachable) after its retries',
  ),
}).description(
  "OpenAI's embeddings request, answered by the project's OpenAI credential (text-embedding-* models). Unknown fields are dropped.",
);

export function parseEmbeddingsBody(input: unknown): EmbeddingsBody {
  const body = parseVendorRequest(embeddingsRequestSchema, input);
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
