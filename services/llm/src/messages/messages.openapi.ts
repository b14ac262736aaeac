import type Anthropic from '@anthropic-ai/sdk';
import { json, KEYS, type OperationDefinition, type ResponseDefinition } from '@platform/contract';
import { Joi } from '@platform/tenancy';
import { messagesRequestSchema } from './messages-request.schema';

/** Anthropic's error shape; `success: false`, our code and details keep it our common envelope too (see anthropic-errors.ts). */
const anthropicErrorResponse = Joi.object({
  type: Joi.valid('error').required(),
  success: Joi.valid(false).required(),
  error: Joi.object({
    type: Joi.string()
      .required()
      .description(
        'invalid_request_error, authentication_error, permission_error, not_found_error, request_too_large, rate_limit_error, api_error, overloaded_error',
      ),
    message: Joi.string().allow('').required(),
    code: Joi.string()
      .required()
      .description('ours: VALIDATION_ERROR, UNAUTHORIZED, RATE_LIMITED, BUDGET_EXCEEDED, VENDOR_ERROR, ...'),
    details: Joi.array().items(Joi.object({ path: Joi.string().required(), message: Joi.string().required() })),
  }).required(),
})
  .description("Anthropic's error shape ({type: 'error', error: {type, message}}), also our common envelope")
  .id('AnthropicError');

// An open object: a message passed on from Anthropic keeps the fields Anthropic adds.
const messageResponse = Joi.object<Anthropic.Message>({
  id: Joi.string().required(),
  type: Joi.valid('message').required(),
  role: Joi.valid('assistant').required(),
  model: Joi.string().required(),
  content: Joi.array()
    .items(Joi.object({ type: Joi.string().required() }).unknown())
    .required(),
  stop_reason: Joi.string().allow(null).required(),
  stop_sequence: Joi.string().allow(null),
  usage: Joi.object({ input_tokens: Joi.number().integer(), output_tokens: Joi.number().integer() }).unknown(),
})
  .unknown()
  .id('AnthropicMessage');

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid credentials',
  403: 'Not allowed',
  404: 'Unknown model',
  413: 'Request body too large',
  429: 'Rate limited',
  500: 'Server or vendor error',
  502: 'Vendor unreachable',
};

const anthropicErrors = (...statuses: number[]): Record<number, ResponseDefinition> =>
  Object.fromEntries(statuses.map((status) => [status, json(STATUS_TEXT[status], anthropicErrorResponse)]));

const message: ResponseDefinition = {
  ...json(
    "Anthropic's Message; with stream: true a text/event-stream of Anthropic's events (message_start, content_block_start, ping, content_block_delta with text_delta or input_json_delta, content_block_stop, message_delta with the stop reason and usage, message_stop). A failure after the first event ends the stream with an `error` event.",
    messageResponse,
  ),
  content: { 'text/event-stream': { schema: { type: 'string' } } },
  headers: {
    'x-llm-cost-usd': {
      description:
        'cost of the request in USD (all attempts), by the price table; absent for a model without a price. Streams send it as an HTTP trailer',
      schema: { type: 'string' },
    },
  },
};

/** The four key headers, the single credential as a bearer, or Anthropic's `x-api-key: <public key>.<secret key>`. */
const MESSAGES_CREDENTIALS: Record<string, string[]>[] = [...KEYS, { singleCredential: [] }, { anthropicApiKey: [] }];

/** Anthropic's `x-api-key` holding the single credential: accepted on /messages only. */
export const anthropicApiKeyScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'x-api-key',
  description:
    "on /messages only: the project public key and secret key joined by a dot (`<public key>.<secret key>`), as Anthropic's SDKs send their key",
};

export const messagesOperations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/messages',
    operationId: 'postMessages',
    summary: "Anthropic's Messages API, whole or streamed, for Claude and OpenAI models",
    description:
      "Point Anthropic's SDK at the service (base URL without /v1) with `<public key>.<secret key>` as its API key. claude-* models get the request as it is and answer as Anthropic answers; OpenAI models get it translated to Chat Completions and answer translated back (text, tool_use, stop reason, usage). Admission, retries, fallbacks (the request's `fallbacks` or the project's, before the first byte), budgets and limits, usage logs and cost as on /chat/completions. Errors in Anthropic's shape.",
    security: MESSAGES_CREDENTIALS,
    request: { body: messagesRequestSchema },
    responses: { 200: message, ...anthropicErrors(400, 401, 403, 404, 413, 429, 500, 502) },
  },
];
