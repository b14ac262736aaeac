import { Joi } from '@platform/tenancy';
import { modelSchema } from '../completions/completions.schemas';
import type { ChatRequest } from '../vendors/chat-types';

/** A Chat Completions body: OpenAI's request, plus `fallbacks` (models tried in turn, as LiteLLM takes it). */
export type ChatBody = ChatRequest & {
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  fallbacks?: string[];
};

const text = Joi.string().allow('').max(1_000_000);
const name = Joi.string().max(256);

const contentPart = Joi.object({
  type: Joi.string().valid('text', 'image_url', 'input_audio', 'file', 'refusal').required(),
  text: Joi.when('type', { is: 'text', then: text.required(), otherwise: Joi.forbidden() }),
  refusal: Joi.when('type', { is: 'refusal', then: text.required(), otherwise: Joi.forbidden() }),
  image_url: Joi.when('type', {
    is: 'image_url',
    then: Joi.object({
      url: Joi.string().max(20_000_000).required(),
      detail: Joi.string().valid('auto', 'low', 'high'),
    }).required(),
    otherwise: Joi.forbidden(),
  }),
  input_audio: Joi.object({ data: Joi.string().required(), format: Joi.string().required() }),
  file: Joi.object({ file_data: Joi.string(), file_id: Joi.string(), filename: Joi.string() }),
});

const toolCall = Joi.object({
  id: Joi.string().max(256).required(),
  type: Joi.string().valid('function').required(),
  function: Joi.object({ name: name.required(), arguments: text.required() }).required(),
});

const message = Joi.object({
  role: Joi.string().valid('system', 'developer', 'user', 'assistant', 'tool').required(),
  content: Joi.alternatives()
    .try(text, Joi.array().items(contentPart).max(1000))
    .allow(null)
    .when('role', { is: Joi.valid('assistant'), then: Joi.any(), otherwise: Joi.required().invalid(null) }),
  name,
  tool_calls: Joi.when('role', {
    is: 'assistant',
    then: Joi.array().items(toolCall).max(128),
    otherwise: Joi.forbidden(),
  }),
  tool_call_id: Joi.when('role', { is: 'tool', then: Joi.string().max(256).required(), otherwise: Joi.forbidden() }),
  refusal: Joi.string().allow(null),
});

const tool = Joi.object({
  type: Joi.string().valid('function').required(),
  function: Joi.object({
    name: Joi.string()
      .pattern(/^[a-zA-Z0-9_-]{1,64}$/)
      .required(),
    description: Joi.string().allow('').max(10_000),
    parameters: Joi.object().unknown(true),
    strict: Joi.boolean().allow(null),
  }).required(),
});

export const chatSchema = Joi.object<ChatBody>({
  model: modelSchema,
  messages: Joi.array().items(message.required()).min(1).max(2000).required(),
  temperature: Joi.number().min(0).max(2).allow(null),
  top_p: Joi.number().min(0).max(1).allow(null),
  max_tokens: Joi.number().integer().min(1).max(1_000_000).allow(null),
  max_completion_tokens: Joi.number().integer().min(1).max(1_000_000).allow(null),
  stop: Joi.alternatives()
    .try(Joi.string().max(1000), Joi.array().items(Joi.string().max(1000)).max(4))
    .allow(null),
  n: Joi.number().integer().min(1).max(8).allow(null),
  seed: Joi.number().integer().allow(null),
  presence_penalty: Joi.number().min(-2).max(2).allow(null),
  frequency_penalty: Joi.number().min(-2).max(2).allow(null),
  tools: Joi.array().items(tool).max(128),
  tool_choice: Joi.alternatives().try(
    Joi.string().valid('none', 'auto', 'required'),
    Joi.object({
      type: Joi.string().valid('function').required(),
      function: Joi.object({ name: name.required() }).required(),
    }),
  ),
  parallel_tool_calls: Joi.boolean(),
  response_format: Joi.object({
    type: Joi.string().valid('text', 'json_object', 'json_schema').required(),
    json_schema: Joi.when('type', {
      is: 'json_schema',
      then: Joi.object({
        name: name.required(),
        description: Joi.string().max(10_000),
        schema: Joi.object().unknown(true),
        strict: Joi.boolean().allow(null),
      }).required(),
      otherwise: Joi.forbidden(),
    }),
  }),
  user: Joi.string().max(512),
  stream: Joi.boolean().allow(null),
  stream_options: Joi.object({ include_usage: Joi.boolean() }).allow(null),
  fallbacks: Joi.array()
    .items(Joi.string().trim().min(1).max(200))
    .max(20)
    .description(
      'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
    ),
})
  .description(
    "OpenAI's Chat Completions request. claude-* models are translated to Anthropic's Messages API (system and developer messages to `system`, tools, tool_choice, stop, user as metadata.user_id; n must be 1; response_format is not passed on). Unknown fields are dropped.",
  )
  .id('ChatCompletionRequest');

export const fallbacksSchema = Joi.object<{ fallbacks: string[] }>({
  fallbacks: Joi.array().items(Joi.string().trim().min(1).max(200)).max(20).required(),
}).id('Fallbacks');

const optionalLimit = (schema: Joi.NumberSchema) => schema.allow(null).default(null);

export const limitsSchema = Joi.object({
  monthlyBudgetUsd: optionalLimit(Joi.number().min(0).max(1e9).precision(6)).description(
    'spend per calendar month (UTC), by the price table',
  ),
  requestsPerMinute: optionalLimit(Joi.number().integer().min(1).max(10_000_000)),
  tokensPerMinute: optionalLimit(Joi.number().integer().min(1).max(1e12)),
})
  .description('replaces all three; an omitted or null limit is no limit')
  .id('LimitsInput');
