import type Anthropic from '@anthropic-ai/sdk';
import { jsonSchemaParser } from '@platform/tenancy';

/** A Messages body: Anthropic's request, plus `fallbacks` (models tried in turn, as on /chat/completions). */
export type MessagesBody = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'> & {
  stream?: boolean;
  fallbacks?: string[];
};

const word = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });
const modelName = { ...word(200), pattern: '\\S' };
/** A content block: its `type` is checked here, the rest by the vendor (Claude) or the translation (OpenAI). */
const block = { type: 'object', required: ['type'], properties: { type: word(64) } };
const content = {
  anyOf: [
    { type: 'string', maxLength: 1_000_000 },
    { type: 'array', maxItems: 1000, items: block },
  ],
};

const tool = {
  type: 'object',
  required: ['name'],
  properties: {
    name: word(128),
    description: { type: 'string', maxLength: 10_000 },
    input_schema: { type: 'object' },
    type: word(64),
  },
};

/**
 * Anthropic's Messages request in JSON Schema: what /messages validates and what its OpenAPI
 * document shows. Fields it does not list (thinking, service_tier, ...) go on to Anthropic as
 * they are; a request translated for an OpenAI model keeps the listed ones.
 */
export const messagesRequestSchema = {
  type: 'object',
  required: ['model', 'messages', 'max_tokens'],
  properties: {
    model: modelName,
    max_tokens: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: 2000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'content'],
        properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content },
      },
    },
    system: content,
    temperature: { type: 'number', minimum: 0, maximum: 1 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    top_k: { type: 'integer', minimum: 0 },
    stop_sequences: { type: 'array', maxItems: 16, items: word(1000) },
    stream: { type: 'boolean' },
    metadata: { type: 'object', properties: { user_id: { type: ['string', 'null'], maxLength: 512 } } },
    tools: { type: 'array', maxItems: 128, items: tool },
    tool_choice: {
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'string', enum: ['auto', 'any', 'tool', 'none'] }, name: word(128) },
      if: { properties: { type: { const: 'tool' } } },
      then: { required: ['name'] },
    },
    fallbacks: {
      type: 'array',
      maxItems: 20,
      items: modelName,
      description:
        'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
    },
  },
  description:
    "Anthropic's Messages request. claude-* models get it as it is; OpenAI models get it translated to Chat Completions (system, text and image blocks, tools, tool_use and tool_result, tool_choice, stop_sequences, metadata.user_id) and answer translated back.",
};

const validMessagesBody = jsonSchemaParser<MessagesBody>(messagesRequestSchema);

/** A valid Messages body, model names trimmed; else the 400 with every problem. */
export function parseMessagesBody(input: unknown): MessagesBody {
  const body = validMessagesBody(input);
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
