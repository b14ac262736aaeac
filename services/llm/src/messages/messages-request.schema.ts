import type Anthropic from '@anthropic-ai/sdk';
import { Joi } from '@platform/tenancy';
import {
  boolean,
  eitherForm,
  fields,
  integer,
  listOf,
  modelName,
  nullable,
  number,
  oneOf,
  openFields,
  text,
  vendorRequest,
  word,
  parseVendorRequest,
} from '../gateway/vendor-request-fields';

/** A Messages body: Anthropic's request, plus `fallbacks` (models tried in turn, as on /chat/completions). */
export type MessagesBody = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'> & {
  stream?: boolean;
  fallbacks?: string[];
};

/** A content block: its `type` is checked here, the rest by the vendor (Claude) or the translation (OpenAI). */
const block = openFields({ type: word(64).required() });
const content = eitherForm(text(1_000_000), listOf(block, 1000));

const tool = openFields({
  name: word(128).required(),
  description: text(10_000),
  input_schema: openFields(),
  type: word(64),
});

/**
 * Anthropic's Messages request: what /messages validates and what its OpenAPI document shows.
 * Fields it does not list (thinking, service_tier, ...) go on to Anthropic as they are; a request
 * translated for an OpenAI model keeps the listed ones.
 */
export const messagesRequestSchema = vendorRequest<MessagesBody>(
  {
    model: modelName.required(),
    max_tokens: integer(1, 1_000_000).required(),
    messages: listOf(fields({ role: oneOf('user', 'assistant').required(), content: content.required() }), 2000)
      .min(1)
      .required(),
    system: content,
    temperature: number(0, 1),
    top_p: number(0, 1),
    top_k: integer(0),
    stop_sequences: listOf(word(1000), 16),
    stream: boolean(),
    metadata: openFields({ user_id: nullable(text(512), 'string') }),
    tools: listOf(tool, 128),
    tool_choice: openFields({
      type: oneOf('auto', 'any', 'tool', 'none').required(),
      name: Joi.when('type', { is: 'tool', then: word(128).required(), otherwise: word(128) }),
    }),
    fallbacks: listOf(modelName, 20).description(
      'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
    ),
  },
  true,
).description(
  "Anthropic's Messages request. claude-* models get it as it is; OpenAI models get it translated to Chat Completions (system, text and image blocks, tools, tool_use and tool_result, tool_choice, stop_sequences, metadata.user_id) and answer translated back.",
);

/** A valid Messages body, model names trimmed; else the 400 with every problem. */
export function parseMessagesBody(input: unknown): MessagesBody {
  const body = parseVendorRequest(messagesRequestSchema, input);
  body.model = body.model.trim();
  if (body.fallbacks) body.fallbacks = body.fallbacks.map((model) => model.trim());
  return body;
}
