import { Joi } from '@platform/tenancy';
import type { ChatRequest } from '../vendors/chat-types';
import {
  boolean,
  constant,
  eitherForm,
  type FieldForm,
  fields,
  functionName,
  integer,
  listOf,
  modelName,
  nullable,
  number,
  oneOf,
  openFields,
  presentNotNull,
  stringOrArray,
  text,
  vendorRequest,
  word,
  parseVendorRequest,
} from './vendor-request-fields';

/** A Chat Completions body: OpenAI's request, plus `fallbacks` (models tried in turn, as LiteLLM takes it). */
export type ChatBody = ChatRequest & {
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  fallbacks?: string[];
};

/** Message text, which may be empty. Other strings may not. */
const messageText = text(1_000_000);
const name = word(256);

/** Required when `field` is `value`, not allowed otherwise. */
const onlyWhen = (field: string, value: string, schema: Joi.Schema) =>
  Joi.when(field, { is: value, then: schema.required(), otherwise: Joi.forbidden() });

const contentPart = fields({
  type: oneOf('text', 'image_url', 'input_audio', 'file', 'refusal').required(),
  text: onlyWhen('type', 'text', messageText),
  refusal: onlyWhen('type', 'refusal', messageText),
  image_url: onlyWhen(
    'type',
    'image_url',
    fields({ url: word(20_000_000).required(), detail: oneOf('auto', 'low', 'high') }),
  ),
  input_audio: fields({ data: word().required(), format: word().required() }),
  file: fields({ file_data: word(), file_id: word(), filename: word() }),
});

const toolCall = fields({
  id: word(256).required(),
  type: constant('function').required(),
  function: fields({ name: name.required(), arguments: messageText.required() }).required(),
});

const content = stringOrArray(messageText, listOf(contentPart, 1000), true);

const message = fields({
  role: oneOf('system', 'developer', 'user', 'assistant', 'tool').required(),
  // Only the assistant may leave out its content (when it calls tools) or send null, and only it calls tools.
  content: content.when('role', { is: 'assistant', then: Joi.any(), otherwise: presentNotNull('string,array') }),
  name,
  tool_calls: Joi.when('role', { is: 'assistant', then: listOf(toolCall, 128), otherwise: Joi.forbidden() }),
  tool_call_id: onlyWhen('role', 'tool', word(256)),
  refusal: nullable(word(), 'string'),
});

const TEXT_ROLES = new Set(['system', 'developer', 'user']);

/** A message of a role that sends text, holding nothing but its role and content. */
function isTextMessage(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || !TEXT_ROLES.has((value as { role?: unknown }).role as string)) {
    return false;
  }
  for (const key in value) if (key !== 'role' && key !== 'content') return false;
  return true;
}

/**
 * Most requests' messages: text from the system, developer or user, nothing else in them. Checked
 * as `message` checks them, its conditions on the role settled (content present and not null).
 */
const textMessages: FieldForm = {
  holds: (messages) => Array.isArray(messages) && messages.every(isTextMessage),
  schema: listOf(
    fields({
      role: oneOf(...TEXT_ROLES).required(),
      content: (content as Joi.AnySchema).concat(presentNotNull('string,array')),
    }),
    2000,
  )
    .min(1)
    .required(),
};

const tool = fields({
  type: constant('function').required(),
  function: fields({
    name: functionName.required(),
    description: text(10_000),
    parameters: openFields(),
    strict: nullable(boolean(), 'boolean'),
  }).required(),
});

const toolChoice = eitherForm(
  oneOf('none', 'auto', 'required'),
  fields({ type: constant('function').required(), function: fields({ name: name.required() }).required() }),
);

const responseFormat = fields({
  type: oneOf('text', 'json_object', 'json_schema').required(),
  json_schema: onlyWhen(
    'type',
    'json_schema',
    fields({
      name: name.required(),
      description: word(10_000),
      schema: openFields(),
      strict: nullable(boolean(), 'boolean'),
    }),
  ),
});

/**
 * OpenAI's Chat Completions request: what /chat/completions validates and what its OpenAPI
 * document shows.
 */
export const chatRequestSchema = vendorRequest<ChatBody>({
  model: modelName.required(),
  messages: listOf(message, 2000).min(1).required(),
  temperature: nullable(number(0, 2), 'number'),
  top_p: nullable(number(0, 1), 'number'),
  max_tokens: nullable(integer(1, 1_000_000), 'integer'),
  max_completion_tokens: nullable(integer(1, 1_000_000), 'integer'),
  stop: stringOrArray(word(1000), listOf(word(1000), 4), true),
  n: nullable(integer(1, 8), 'integer'),
  // Within JavaScript's exact integers: past them the number read is not the one sent.
  seed: nullable(integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), 'integer'),
  presence_penalty: nullable(number(-2, 2), 'number'),
  frequency_penalty: nullable(number(-2, 2), 'number'),
  tools: listOf(tool, 128),
  tool_choice: toolChoice,
  parallel_tool_calls: boolean(),
  response_format: responseFormat,
  user: word(512),
  stream: nullable(boolean(), 'boolean'),
  stream_options: nullable(fields({ include_usage: boolean() }), 'object'),
  fallbacks: listOf(modelName, 20).description(
    'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
  ),
}).description(
  "OpenAI's Chat Completions request. claude-* models are translated to Anthropic's Messages API (system and developer messages to `system`, tools, tool_choice, stop, user as metadata.user_id; n must be 1; response_format as a forced answer tool whose input is the JSON answer). Unknown fields are dropped.",
);

/** A valid Chat Completions body, unknown fields dropped and model names trimmed; else the 400 with every problem. */
export function parseChatBody(input: unknown): ChatBody {
  const body = parseVendorRequest(chatRequestSchema, input, { messages: textMessages });
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
