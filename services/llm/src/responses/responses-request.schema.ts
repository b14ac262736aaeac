import { jsonSchemaParser } from '@platform/tenancy';

/** A Responses input item, as far as the gateway reads it; other fields of an item go on to OpenAI as sent. */
export interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string; image_url?: string; refusal?: string }[];
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: string | { type: string; text?: string }[];
  id?: string;
}

export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export type ResponsesToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

export interface ResponsesTextFormat {
  type: 'text' | 'json_object' | 'json_schema';
  name?: string;
  description?: string;
  schema?: Record<string, unknown>;
  strict?: boolean | null;
}

/** OpenAI's Responses request (text and function tools), plus `fallbacks` as on /chat/completions. */
export interface ResponsesBody {
  model: string;
  input: string | ResponsesInputItem[];
  instructions?: string | null;
  tools?: FunctionTool[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean | null;
  text?: { format?: ResponsesTextFormat; verbosity?: string | null };
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stream?: boolean | null;
  store?: boolean | null;
  previous_response_id?: string | null;
  metadata?: Record<string, string> | null;
  reasoning?: Record<string, unknown> | null;
  include?: string[] | null;
  user?: string;
  fallbacks?: string[];
}

const text = { type: 'string', maxLength: 1_000_000 };
const word = (maxLength = 256) => ({ type: 'string', minLength: 1, maxLength });
const nullable = (type: string, rules: object = {}) => ({ type: [type, 'null'], ...rules });
const modelName = { ...word(200), pattern: '\\S' };

const contentPart = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['input_text', 'output_text', 'input_image', 'input_file', 'refusal', 'text'] },
    text,
  },
};

const inputItem = {
  type: 'object',
  properties: {
    type: {
      type: 'string',
      enum: ['message', 'function_call', 'function_call_output', 'reasoning', 'item_reference'],
    },
    role: { type: 'string', enum: ['user', 'assistant', 'system', 'developer'] },
    content: { type: ['string', 'array'], maxLength: 1_000_000, maxItems: 1000, items: contentPart },
    call_id: word(),
    name: word(),
    arguments: text,
    output: { type: ['string', 'array'], maxLength: 1_000_000, maxItems: 1000 },
    id: word(),
  },
  allOf: [
    // A message is an item without a type, or of type message: it has a role and content.
    { if: { not: { required: ['type'] } }, then: { required: ['role', 'content'] } },
    { if: { required: ['type'], properties: { type: { const: 'message' } } }, then: { required: ['role', 'content'] } },
    {
      if: { required: ['type'], properties: { type: { const: 'function_call' } } },
      then: { required: ['call_id', 'name', 'arguments'] },
    },
    {
      if: { required: ['type'], properties: { type: { const: 'function_call_output' } } },
      then: { required: ['call_id', 'output'] },
    },
  ],
};

const functionTool = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'name'],
  properties: {
    type: { const: 'function', description: 'function tools only' },
    name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    description: nullable('string', { maxLength: 10_000 }),
    parameters: nullable('object'),
    strict: nullable('boolean'),
  },
};

const toolChoice = {
  anyOf: [
    { type: 'string', enum: ['none', 'auto', 'required'] },
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'name'],
      properties: { type: { const: 'function' }, name: word(64) },
    },
  ],
};

const textFormat = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['text', 'json_object', 'json_schema'] },
    name: word(64),
    description: { type: 'string', maxLength: 10_000 },
    schema: { type: 'object' },
    strict: nullable('boolean'),
  },
  if: { properties: { type: { const: 'json_schema' } } },
  then: { required: ['name', 'schema'] },
};

/**
 * OpenAI's Responses request in JSON Schema: what /responses validates with and what its OpenAPI
 * document shows. Unknown top-level fields are dropped.
 */
export const responsesRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'input'],
  description:
    "OpenAI's Responses request (text, function tools, text.format). Stateless: the gateway keeps no response (store: false semantics); `previous_response_id` and `item_reference` items are passed to OpenAI for gpt-* models (OpenAI keeps what the project's own key stored there) and refused for claude-* models. claude-* models are translated to Anthropic's Messages API. Unknown fields are dropped.",
  properties: {
    model: modelName,
    input: {
      type: ['string', 'array'],
      minLength: 1,
      maxLength: 1_000_000,
      minItems: 1,
      maxItems: 2000,
      items: inputItem,
    },
    instructions: nullable('string', { maxLength: 1_000_000 }),
    tools: { type: 'array', maxItems: 128, items: functionTool },
    tool_choice: toolChoice,
    parallel_tool_calls: nullable('boolean'),
    text: {
      type: 'object',
      additionalProperties: false,
      properties: { format: textFormat, verbosity: nullable('string', { enum: ['low', 'medium', 'high', null] }) },
    },
    max_output_tokens: nullable('integer', { minimum: 1, maximum: 1_000_000 }),
    temperature: nullable('number', { minimum: 0, maximum: 2 }),
    top_p: nullable('number', { minimum: 0, maximum: 1 }),
    stream: nullable('boolean'),
    store: nullable('boolean'),
    previous_response_id: nullable('string', { minLength: 1, maxLength: 256 }),
    metadata: nullable('object', { maxProperties: 16, additionalProperties: { type: 'string', maxLength: 512 } }),
    reasoning: nullable('object'),
    include: nullable('array', { maxItems: 16, items: word() }),
    user: word(512),
    fallbacks: {
      type: 'array',
      maxItems: 20,
      items: modelName,
      description:
        'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
    },
  },
};

const validResponsesBody = jsonSchemaParser<ResponsesBody>(responsesRequestSchema);

/** A valid Responses body, unknown fields dropped and model names trimmed; else the 400 with every problem. */
export function parseResponsesBody(input: unknown): ResponsesBody {
  const body = validResponsesBody(input);
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
