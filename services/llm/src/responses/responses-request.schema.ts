import { Joi } from '@platform/tenancy';
import {
  boolean,
  constant,
  eitherForm,
  fields,
  functionName,
  integer,
  listOf,
  modelName,
  nullable,
  number,
  oneOf,
  openFields,
  stringOrArray,
  text,
  vendorRequest,
  word,
  parseVendorRequest,
} from '../gateway/vendor-request-fields';

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

const itemText = text(1_000_000);
const id = word(256);

/** Required when the item's `type` passes `is`. */
const requiredWhen = (is: Joi.Schema, schema: Joi.Schema) =>
  schema.when('type', { is, then: Joi.required(), otherwise: Joi.any() });

const contentPart = openFields({
  type: oneOf('input_text', 'output_text', 'input_image', 'input_file', 'refusal', 'text').required(),
  text: itemText,
});

// A message is an item without a type, or of type message: it has a role and content.
const message = Joi.valid('message');
const functionCall = Joi.valid('function_call').required();
const functionCallOutput = Joi.valid('function_call_output').required();
const call = Joi.valid('function_call', 'function_call_output').required();

const inputItem = openFields({
  type: oneOf('message', 'function_call', 'function_call_output', 'reasoning', 'item_reference'),
  role: requiredWhen(message, oneOf('user', 'assistant', 'system', 'developer')),
  content: requiredWhen(message, stringOrArray(itemText, listOf(contentPart, 1000))),
  call_id: requiredWhen(call, id),
  name: requiredWhen(functionCall, id),
  arguments: requiredWhen(functionCall, itemText),
  output: requiredWhen(functionCallOutput, stringOrArray(itemText, listOf(Joi.any(), 1000))),
  id,
});

const functionTool = fields({
  type: constant('function').required().description('function tools only'),
  name: functionName.required(),
  description: nullable(text(10_000), 'string'),
  parameters: nullable(openFields(), 'object'),
  strict: nullable(boolean(), 'boolean'),
});

const toolChoice = eitherForm(
  oneOf('none', 'auto', 'required'),
  fields({ type: constant('function').required(), name: word(64).required() }),
);

const jsonSchemaFormat = Joi.valid('json_schema').required();
const textFormat = fields({
  type: oneOf('text', 'json_object', 'json_schema').required(),
  name: requiredWhen(jsonSchemaFormat, word(64)),
  description: text(10_000),
  schema: requiredWhen(jsonSchemaFormat, openFields()),
  strict: nullable(boolean(), 'boolean'),
});

/**
 * OpenAI's Responses request: what /responses validates and what its OpenAPI document shows.
 * Unknown top-level fields are dropped.
 */
export const responsesRequestSchema = vendorRequest<ResponsesBody>({
  model: modelName.required(),
  input: stringOrArray(word(1_000_000), listOf(inputItem, 2000).min(1)).required(),
  instructions: nullable(text(1_000_000), 'string'),
  tools: listOf(functionTool, 128),
  tool_choice: toolChoice,
  parallel_tool_calls: nullable(boolean(), 'boolean'),
  text: fields({ format: textFormat, verbosity: nullable(oneOf('low', 'medium', 'high'), 'string') }),
  max_output_tokens: nullable(integer(1, 1_000_000), 'integer'),
  temperature: nullable(number(0, 2), 'number'),
  top_p: nullable(number(0, 1), 'number'),
  stream: nullable(boolean(), 'boolean'),
  store: nullable(boolean(), 'boolean'),
  previous_response_id: nullable(word(256), 'string'),
  metadata: nullable(Joi.object().pattern(Joi.string(), text(512)).max(16), 'object'),
  reasoning: nullable(openFields(), 'object'),
  include: nullable(listOf(word(256), 16), 'array'),
  user: word(512),
  fallbacks: listOf(modelName, 20).description(
    'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
  ),
}).description(
  "OpenAI's Responses request (text, function tools, text.format). Stateless: the gateway keeps no response (store: false semantics); `previous_response_id` and `item_reference` items are passed to OpenAI for gpt-* models (OpenAI keeps what the project's own key stored there) and refused for claude-* models. claude-* models are translated to Anthropic's Messages API. Unknown fields are dropped.",
);

/** A valid Responses body, unknown fields dropped and model names trimmed; else the 400 with every problem. */
export function parseResponsesBody(input: unknown): ResponsesBody {
  const body = parseVendorRequest(responsesRequestSchema, input);
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
