import { jsonSchemaParser } from '@platform/tenancy';

/** OpenAI's embeddings request, plus `fallbacks` (other embedding models tried in turn). */
export interface EmbeddingsBody {
  model: string;
  input: string | string[] | number[] | number[][];
  dimensions?: number;
  encoding_format?: 'float' | 'base64';
  user?: string;
  fallbacks?: string[];
}

const modelName = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' };
const tokenArray = { type: 'array', minItems: 1, maxItems: 8192, items: { type: 'integer', minimum: 0 } };

/** OpenAI's embeddings request in JSON Schema (at most 2048 inputs, as OpenAI takes them). */
export const embeddingsRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'input'],
  description:
    "OpenAI's embeddings request, answered by the project's OpenAI credential (text-embedding-* models). Unknown fields are dropped.",
  properties: {
    model: modelName,
    input: {
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 1_000_000 },
        { type: 'array', minItems: 1, maxItems: 2048, items: { type: 'string', minLength: 1, maxLength: 1_000_000 } },
        tokenArray,
        { type: 'array', minItems: 1, maxItems: 2048, items: tokenArray },
      ],
    },
    dimensions: { type: 'integer', minimum: 1, maximum: 10_000 },
    encoding_format: { type: 'string', enum: ['float', 'base64'] },
    user: { type: 'string', minLength: 1, maxLength: 512 },
    fallbacks: {
      type: 'array',
      maxItems: 20,
      items: modelName,
      description:
        'extension: embedding models tried in turn when the model fails (429, 5xx, unreachable) after its retries',
    },
  },
};

const validEmbeddingsBody = jsonSchemaParser<EmbeddingsBody>(embeddingsRequestSchema);

export function parseEmbeddingsBody(input: unknown): EmbeddingsBody {
  const body = validEmbeddingsBody(input);
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
