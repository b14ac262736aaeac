import { errorResponses, jsonBody, jsonResponse, KEYS, type JsonSchema } from '@platform/tenancy';
import { ref } from './openapi-schemas';

/** The OpenAI-compatible part of the LLM service's OpenAPI document: paths and component schemas. */
const usd = { type: 'number', minimum: 0 };
const nullableLimit = (description: string) => ({ type: ['number', 'null'], minimum: 0, description });
const openAiErrors = (...statuses: number[]) =>
  Object.fromEntries(
    Object.entries(errorResponses(...statuses)).map(([status, response]) => [
      status,
      {
        ...(response as object),
        content: { 'application/json': { schema: ref('OpenAiError') } },
      },
    ]),
  );

const SINGLE_CREDENTIAL = [...KEYS, { singleCredential: [] }];

export const gatewaySchemas: Record<string, JsonSchema> = {
  OpenAiError: {
    type: 'object',
    required: ['success', 'error'],
    description: "OpenAI's error shape ({error: {message, type, code, param}}), also our common envelope",
    properties: {
      success: { const: false },
      error: {
        type: 'object',
        required: ['message', 'type', 'code', 'param'],
        properties: {
          message: { type: 'string' },
          type: { type: 'string' },
          code: {
            type: 'string',
            description: 'ours: VALIDATION_ERROR, UNAUTHORIZED, RATE_LIMITED, BUDGET_EXCEEDED, VENDOR_ERROR, ...',
          },
          param: { type: ['string', 'null'] },
          details: { type: 'array' },
        },
      },
    },
  },
  ChatCompletionRequest: {
    type: 'object',
    required: ['model', 'messages'],
    description:
      "OpenAI's Chat Completions request. claude-* models are translated to Anthropic's Messages API (system and developer messages to `system`, tools, tool_choice, stop, user as metadata.user_id; n must be 1; response_format is not passed on). Unknown fields are dropped.",
    properties: {
      model: { type: 'string' },
      messages: { type: 'array', minItems: 1, items: { type: 'object', required: ['role'] } },
      temperature: { type: ['number', 'null'], minimum: 0, maximum: 2 },
      top_p: { type: ['number', 'null'] },
      max_tokens: { type: ['integer', 'null'], minimum: 1 },
      max_completion_tokens: { type: ['integer', 'null'], minimum: 1 },
      stop: {
        oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 4 }, { type: 'null' }],
      },
      n: { type: ['integer', 'null'], minimum: 1, maximum: 8 },
      tools: { type: 'array', items: { type: 'object' } },
      tool_choice: { oneOf: [{ type: 'string' }, { type: 'object' }] },
      response_format: { type: 'object' },
      user: { type: 'string' },
      stream: { type: ['boolean', 'null'] },
      stream_options: { type: ['object', 'null'], properties: { include_usage: { type: 'boolean' } } },
      fallbacks: {
        type: 'array',
        items: { type: 'string' },
        description:
          'extension: models tried in turn when the model fails (429, 5xx, unreachable) after its retries; without it the project default (PUT /fallbacks) applies',
      },
    },
  },
  ChatCompletion: {
    type: 'object',
    required: ['id', 'object', 'created', 'model', 'choices'],
    properties: {
      id: { type: 'string' },
      object: { const: 'chat.completion' },
      created: { type: 'integer' },
      model: { type: 'string' },
      choices: {
        type: 'array',
        items: {
          type: 'object',
          required: ['index', 'message', 'finish_reason'],
          properties: {
            index: { type: 'integer' },
            message: { type: 'object', required: ['role'] },
            finish_reason: { type: ['string', 'null'] },
          },
        },
      },
      usage: { type: 'object' },
    },
  },
  ModelList: {
    type: 'object',
    required: ['object', 'data'],
    properties: {
      object: { const: 'list' },
      data: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'object', 'created', 'owned_by'],
          properties: {
            id: { type: 'string' },
            object: { const: 'model' },
            created: { type: 'integer' },
            owned_by: { type: 'string', enum: ['openai', 'anthropic'] },
          },
        },
      },
    },
  },
  LimitsInput: {
    type: 'object',
    description: 'replaces all three; an omitted or null limit is no limit',
    properties: {
      monthlyBudgetUsd: nullableLimit('spend per calendar month (UTC), by the price table'),
      requestsPerMinute: { type: ['integer', 'null'], minimum: 1 },
      tokensPerMinute: { type: ['integer', 'null'], minimum: 1 },
    },
  },
  Limits: {
    type: 'object',
    required: ['monthlyBudgetUsd', 'requestsPerMinute', 'tokensPerMinute', 'month', 'spentThisMonthUsd', 'reservedUsd'],
    properties: {
      monthlyBudgetUsd: nullableLimit('null: no budget'),
      requestsPerMinute: { type: ['integer', 'null'] },
      tokensPerMinute: { type: ['integer', 'null'] },
      month: { type: 'string', format: 'date-time', description: 'start of the current month (UTC)' },
      spentThisMonthUsd: usd,
      reservedUsd: { ...usd, description: 'held by requests in flight (their worst-case cost)' },
    },
  },
  Fallbacks: {
    type: 'object',
    required: ['fallbacks'],
    properties: { fallbacks: { type: 'array', items: { type: 'string' }, maxItems: 20 } },
  },
};

const costHeader = {
  'x-llm-cost-usd': {
    description:
      'cost of the request in USD (all attempts), by the price table; absent for a model without a price. Streams send it as an HTTP trailer',
    schema: { type: 'string' },
  },
};

export const gatewayPaths = {
  '/chat/completions': {
    post: {
      summary: 'OpenAI-compatible chat completion, whole or streamed',
      security: SINGLE_CREDENTIAL,
      requestBody: jsonBody(ref('ChatCompletionRequest')),
      responses: {
        '200': {
          ...jsonResponse('The completion', ref('ChatCompletion')),
          headers: costHeader,
          description:
            'The completion; with stream: true a text/event-stream of `data: {chat.completion.chunk}` events, the usage chunk when stream_options.include_usage, then `data: [DONE]`. A failure after the first chunk ends the stream with `data: {error}` and no [DONE].',
        },
        ...openAiErrors(400, 401, 403, 404, 429, 500, 502),
      },
      description:
        "Routes by model like /completions. On a vendor 429, 5xx, connection error or timeout before the first byte: retries with backoff (honouring Retry-After), then the request's `fallbacks` or the project's. 429 RATE_LIMITED (requestsPerMinute, tokensPerMinute, open streams) or BUDGET_EXCEEDED, with Retry-After. A vendor's 400/404 keeps its status.",
    },
  },
  '/models': {
    get: {
      summary: "OpenAI's model list: the priced models of the vendors this project has configured",
      security: SINGLE_CREDENTIAL,
      responses: { '200': jsonResponse('Models', ref('ModelList')), ...openAiErrors(401) },
    },
  },
  '/limits': {
    get: {
      summary: "The project's budget and rate limits, and its spend this month",
      security: KEYS,
      responses: { '200': jsonResponse('Limits', ref('Limits')), ...errorResponses(401) },
    },
    put: {
      summary: "Set the project's budget and rate limits (enforced on /chat/completions across replicas)",
      security: KEYS,
      requestBody: jsonBody(ref('LimitsInput')),
      responses: { '200': jsonResponse('Limits', ref('Limits')), ...errorResponses(400, 401) },
    },
  },
  '/fallbacks': {
    get: {
      summary: "The project's default fallback models for /chat/completions",
      security: KEYS,
      responses: { '200': jsonResponse('Fallbacks', ref('Fallbacks')), ...errorResponses(401) },
    },
    put: {
      summary: "Set the project's default fallback models (tried in turn when a request names none)",
      security: KEYS,
      requestBody: jsonBody(ref('Fallbacks')),
      responses: { '200': jsonResponse('Fallbacks', ref('Fallbacks')), ...errorResponses(400, 401) },
    },
  },
};

/** The single credential: `Authorization: Bearer <public key>.<secret key>`, on the OpenAI-compatible routes. */
export const singleCredentialScheme = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: '<public key>.<secret key>',
  description: 'the project public key and secret key joined by a dot; names exactly one project',
};
