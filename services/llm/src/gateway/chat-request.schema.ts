import { jsonSchemaParser } from '@platform/tenancy';
import type { ChatRequest } from '../vendors/chat-types';

/** A Chat Completions body: OpenAI's request, plus `fallbacks` (models tried in turn, as LiteLLM takes it). */
export type ChatBody = ChatRequest & {
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  fallbacks?: string[];
};

/** Message text, which may be empty. Other strings may not (as Joi's, which checked this body before). */
const text = { type: 'string', maxLength: 1_000_000 };
const word = (maxLength?: number) => ({ type: 'string', minLength: 1, ...(maxLength ? { maxLength } : {}) });
const name = word(256);
const nullable = (type: string, rules: object = {}) => ({ type: [type, 'null'], ...rules });

/** An object of the listed fields; any other field is dropped (`additionalProperties: false`). */
const fields = (properties: object, required: string[] = [], rules: object = {}) => ({
  type: 'object',
  additionalProperties: false,
  ...(required.length ? { required } : {}),
  properties,
  ...rules,
});

/** `field` equals `value`. */
const fieldIs = (field: string, value: string) => ({ required: [field], properties: { [field]: { const: value } } });

/** `property` is required when `field` is `value`, and not allowed otherwise. */
const onlyWhen = (field: string, value: string, property: string) => ({
  if: fieldIs(field, value),
  then: { required: [property] },
  else: { properties: { [property]: false } },
});

const contentPart = fields(
  {
    type: { type: 'string', enum: ['text', 'image_url', 'input_audio', 'file', 'refusal'] },
    text,
    refusal: text,
    image_url: fields({ url: word(20_000_000), detail: { type: 'string', enum: ['auto', 'low', 'high'] } }, ['url']),
    input_audio: fields({ data: word(), format: word() }, ['data', 'format']),
    file: fields({ file_data: word(), file_id: word(), filename: word() }),
  },
  ['type'],
  {
    allOf: [
      onlyWhen('type', 'text', 'text'),
      onlyWhen('type', 'refusal', 'refusal'),
      onlyWhen('type', 'image_url', 'image_url'),
    ],
  },
);

const toolCall = fields(
  { id: word(256), type: { const: 'function' }, function: fields({ name, arguments: text }, ['name', 'arguments']) },
  ['id', 'type', 'function'],
);

const message = fields(
  {
    role: { type: 'string', enum: ['system', 'developer', 'user', 'assistant', 'tool'] },
    content: { type: ['string', 'array', 'null'], maxLength: 1_000_000, maxItems: 1000, items: contentPart },
    name,
    tool_calls: { type: 'array', maxItems: 128, items: toolCall },
    tool_call_id: word(256),
    refusal: nullable('string', { minLength: 1 }),
  },
  ['role'],
  {
    allOf: [
      // Only the assistant may leave out its content (when it calls tools) or send null, and only it calls tools.
      {
        if: fieldIs('role', 'assistant'),
        else: { required: ['content'], properties: { content: { type: ['string', 'array'] }, tool_calls: false } },
      },
      onlyWhen('role', 'tool', 'tool_call_id'),
    ],
  },
);

const tool = fields(
  {
    type: { const: 'function' },
    function: fields(
      {
        name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
        description: { type: 'string', maxLength: 10_000 },
        parameters: { type: 'object' },
        strict: nullable('boolean'),
      },
      ['name'],
    ),
  },
  ['type', 'function'],
);

const toolChoice = {
  anyOf: [
    { type: 'string', enum: ['none', 'auto', 'required'] },
    fields({ type: { const: 'function' }, function: fields({ name }, ['name']) }, ['type', 'function']),
  ],
};

const responseFormat = fields(
  {
    type: { type: 'string', enum: ['text', 'json_object', 'json_schema'] },
    json_schema: fields({ name, description: word(10_000), schema: { type: 'object' }, strict: nullable('boolean') }, [
      'name',
    ]),
  },
  ['type'],
  { allOf: [onlyWhen('type', 'json_schema', 'json_schema')] },
);

/** A model name: at least one character that is not a space (names are trimmed). */
const modelName = { ...word(200), pattern: '\\S' };

/**
 * OpenAI's Chat Completions request in JSON Schema: what /chat/completions validates with
 * (ajv, compiled once: the gateway's hot route) and what its OpenAPI document shows.
 */
export const chatRequestSchema = fields(
  {
    model: modelName,
    messages: { type: 'array', minItems: 1, maxItems: 2000, items: message },
    temperature: nullable('number', { minimum: 0, maximum: 2 }),
    top_p: nullable('number', { minimum: 0, maximum: 1 }),
    max_tokens: nullable('integer', { minimum: 1, maximum: 1_000_000 }),
    max_completion_tokens: nullable('integer', { minimum: 1, maximum: 1_000_000 }),
    stop: {
      type: ['string', 'array', 'null'],
      minLength: 1,
      maxLength: 1000,
      maxItems: 4,
      items: word(1000),
    },
    n: nullable('integer', { minimum: 1, maximum: 8 }),
    // Within JavaScript's exact integers (as Joi's integer()): past them the number read is not the one sent.
    seed: nullable('integer', { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
    presence_penalty: nullable('number', { minimum: -2, maximum: 2 }),
    frequency_penalty: nullable('number', { minimum: -2, maximum: 2 }),
    tools: { type: 'array', maxItems: 128, items: tool },
    tool_choice: toolChoice,
    parallel_tool_calls: { type: 'boolean' },
    response_format: responseFormat,
    user: word(512),
    stream: nullable('boolean'),
    stream_options: nullable('object', {
      additionalProperties: false,
      properties: { include_usage: { type: 'boolean' } },
    }),
    fallbacks: {
      type: 'array',
      maxItems: 20,
      items: modelName,
      description:
        'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
    },
  },
  ['model', 'messages'],
  {
    description:
      "OpenAI's Chat Completions request. claude-* models are translated to Anthropic's Messages API (system and developer messages to `system`, tools, tool_choice, stop, user as metadata.user_id; n must be 1; response_format as a forced answer tool whose input is the JSON answer). Unknown fields are dropped.",
  },
);

const validChatBody = jsonSchemaParser<ChatBody>(chatRequestSchema);

/** A valid Chat Completions body, unknown fields dropped and model names trimmed; else the 400 with every problem. */
export function parseChatBody(input: unknown): ChatBody {
  const body = validChatBody(input);
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
