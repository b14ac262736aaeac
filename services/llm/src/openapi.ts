/** The LLM service's contract: every operation, its request schemas (the routes' own) and responses. */
import {
  buildContractDocument,
  json,
  type OperationDefinition,
  type ResponseDefinition,
  KEYS,
} from '@platform/contract';
import { Joi } from '@platform/tenancy';
import {
  batchCancelledResponse,
  batchCreatedResponse,
  batchListResponse,
  batchResponse,
  batchResultsResponse,
} from './batches/batches.responses';
import { batchIdSchema, listBatchesSchema, submitBatchSchema } from './batches/batches.schemas';
import { completionResponse } from './completions/completions.responses';
import { completionSchema } from './completions/completions.schemas';
import { BATCH_MAX_REQUESTS_DEFAULT } from './config';
import { embeddingsRequestSchema } from './embeddings/embeddings-request.schema';
import { embeddingsResponse } from './embeddings/embeddings.responses';
import {
  chatCompletionResponse,
  modelListResponse,
  modelResponse,
  openAiErrorResponse,
} from './gateway/gateway.responses';
import { responsesRequestSchema } from './responses/responses-request.schema';
import { responseObjectResponse } from './responses/responses.responses';
import { fallbacksSchema, limitsSchema } from './gateway/chat.schemas';
import { chatRequestSchema } from './gateway/chat-request.schema';
import { fallbacksResponse, limitsResponse } from './limits/limits.responses';
import { anthropicApiKeyScheme, messagesOperations } from './messages/messages.openapi';
import { providerListResponse, providerResponse, providerTestResponse } from './providers/providers.responses';
import { saveProviderSchema, testProviderSchema } from './providers/providers.schemas';
import { dailyUsageResponse, logListResponse, statsResponse } from './usage/usage.responses';
import { dailyQuerySchema, logsQuerySchema, projectPathSchema, statsQuerySchema } from './usage/usage.schemas';

/** The OpenAI-compatible routes also take `Authorization: Bearer <public key>.<secret key>`. */
const SINGLE_CREDENTIAL = [...KEYS, { singleCredential: [] }];

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid credentials',
  403: 'Not allowed',
  404: 'Not found',
  413: 'Request body too large',
  429: 'Rate limited',
  500: 'Server or vendor error',
  502: 'Vendor unreachable',
};

/** The OpenAI-compatible routes answer errors in OpenAI's shape (gateway/openai-errors.ts). */
const openAiErrors = (...statuses: number[]): Record<number, ResponseDefinition> =>
  Object.fromEntries(statuses.map((status) => [status, json(STATUS_TEXT[status], openAiErrorResponse)]));

const chatCompletion: ResponseDefinition = {
  ...json(
    'The completion; with stream: true a text/event-stream of `data: {chat.completion.chunk}` events, the usage chunk when stream_options.include_usage, then `data: [DONE]`. A failure after the first chunk ends the stream with `data: {error}` and no [DONE].',
    chatCompletionResponse,
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

const gatewayOperations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/chat/completions',
    operationId: 'postChatCompletions',
    summary: 'OpenAI-compatible chat completion, whole or streamed',
    description:
      "Routes by model like /completions. On a vendor 429, 5xx, connection error or timeout before the first byte: retries with backoff (honouring Retry-After), then the request's `fallbacks` or the project's. 429 RATE_LIMITED (requestsPerMinute, tokensPerMinute, open streams) or BUDGET_EXCEEDED, with Retry-After. Under a monthly budget, a model (or fallback) without a price is refused with 400 naming it. A vendor's 400/404 keeps its status.",
    security: SINGLE_CREDENTIAL,
    request: { body: chatRequestSchema },
    responses: { 200: chatCompletion, ...openAiErrors(400, 401, 403, 404, 413, 429, 500, 502) },
  },
  {
    method: 'get',
    path: '/models',
    operationId: 'getModels',
    summary: "OpenAI's model list: the priced models of the vendors this project has configured",
    security: SINGLE_CREDENTIAL,
    responses: { 200: json('Models', modelListResponse), ...openAiErrors(401, 429) },
  },
  {
    method: 'get',
    path: '/models/{model}',
    operationId: 'getModelsByModel',
    summary: "OpenAI's model object for one model of the list; 404 model_not_found otherwise",
    security: SINGLE_CREDENTIAL,
    request: { params: Joi.object({ model: Joi.string().max(200).required() }) },
    responses: { 200: json('The model', modelResponse), ...openAiErrors(401, 404, 429) },
  },
  {
    method: 'post',
    path: '/responses',
    operationId: 'postResponses',
    summary: "OpenAI's Responses API (text, function tools, text.format), whole or streamed",
    description:
      "Stateless: the gateway stores no response (store: false semantics). gpt-* models get the request itself from OpenAI's Responses API; claude-* models are translated to Anthropic's Messages API and back (instructions, input items, function tools and their outputs, tool_choice, max_output_tokens, temperature, top_p, text.format as response_format), and cannot continue a stored response (`previous_response_id`, `item_reference`: 400). With stream: true a text/event-stream of OpenAI's events (`event: <type>` and `data: {type, sequence_number, ...}`: response.created, response.in_progress, response.output_item.added, response.output_text.delta, response.function_call_arguments.delta, ... the done events, then response.completed with usage); a failure after the first event ends it with an `error` event. Retries, fallbacks (`fallbacks` or the project's), limits, usage logs and cost exactly as /chat/completions. An unknown model is 404 model_not_found.",
    security: SINGLE_CREDENTIAL,
    request: { body: responsesRequestSchema },
    responses: {
      200: {
        ...json('The Response; with stream: true, its event stream', responseObjectResponse),
        content: { 'text/event-stream': { schema: { type: 'string' } } },
        headers: chatCompletion.headers,
      },
      ...openAiErrors(400, 401, 403, 404, 413, 429, 500, 502),
    },
  },
  {
    method: 'post',
    path: '/embeddings',
    operationId: 'postEmbeddings',
    summary: "OpenAI's embeddings (float or base64), answered with the project's OpenAI credential",
    description:
      "Embedding models are OpenAI's (text-embedding-*); a claude model is 400 (Anthropic has no embeddings), another chat model 400, an unknown model 404 model_not_found. Retries, request `fallbacks` (embedding models), limits, usage logs and cost (input tokens) as /chat/completions.",
    security: SINGLE_CREDENTIAL,
    request: { body: embeddingsRequestSchema },
    responses: {
      200: { ...json('The embeddings', embeddingsResponse), headers: chatCompletion.headers },
      ...openAiErrors(400, 401, 403, 404, 413, 429, 500, 502),
    },
  },
  {
    method: 'get',
    path: '/limits',
    operationId: 'getLimits',
    summary: "The project's budget and rate limits, and its spend this month",
    security: KEYS,
    responses: { 200: json('Limits', limitsResponse) },
    errors: [401],
  },
  {
    method: 'put',
    path: '/limits',
    operationId: 'putLimits',
    summary:
      "Set the project's budget and rate limits (enforced on /chat/completions, /responses, /embeddings, /completions and batch items, across replicas)",
    security: KEYS,
    request: { body: limitsSchema },
    responses: { 200: json('Limits', limitsResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/fallbacks',
    operationId: 'getFallbacks',
    summary: "The project's default fallback models for /chat/completions",
    security: KEYS,
    responses: { 200: json('Fallbacks', fallbacksResponse) },
    errors: [401],
  },
  {
    method: 'put',
    path: '/fallbacks',
    operationId: 'putFallbacks',
    summary: "Set the project's default fallback models (tried in turn when a request names none)",
    security: KEYS,
    request: { body: fallbacksSchema },
    responses: { 200: json('Fallbacks', fallbacksResponse) },
    errors: [400, 401],
  },
];

const operations: OperationDefinition[] = [
  {
    method: 'post',
    path: '/completions',
    operationId: 'postCompletions',
    summary: 'Create a completion',
    description:
      "Admitted under the project's limits before the vendor is called, as /chat/completions: 429 BUDGET_EXCEEDED or RATE_LIMITED with Retry-After; under a budget, a model without a price is 400. 403 PROVIDER_NOT_CONFIGURED when the project has no key for the model's vendor; 500 VENDOR_ERROR with the vendor's message; 502 VENDOR_ERROR when the vendor cannot be reached or times out (LLM_VENDOR_TIMEOUT_MS).",
    security: KEYS,
    request: { body: completionSchema },
    responses: { 200: json('The completion', completionResponse) },
    errors: [400, 401, 403, 429, 500, 502],
  },
  {
    method: 'post',
    path: '/batch',
    operationId: 'postBatch',
    summary: 'Submit a batch',
    description:
      "Every request is checked first: unique custom_id, known model, a configured vendor (403 PROVIDER_NOT_CONFIGURED otherwise); under a monthly budget, a priced model (400 otherwise) and a budget not yet spent (429 BUDGET_EXCEEDED with Retry-After). Each item is then admitted under the project's limits before its vendor call: an item the budget refuses fails with that message; one a rate limit refuses waits for the next minute.",
    security: KEYS,
    request: { body: submitBatchSchema(BATCH_MAX_REQUESTS_DEFAULT) },
    responses: { 201: json('Stored and queued (pending)', batchCreatedResponse) },
    errors: [400, 401, 403, 413, 429],
  },
  {
    method: 'get',
    path: '/batch',
    operationId: 'getBatch',
    summary: 'List batches, newest first',
    security: KEYS,
    request: { query: listBatchesSchema },
    responses: { 200: json('Batches', batchListResponse) },
    errors: [400, 401],
  },
  {
    method: 'get',
    path: '/batch/{batch_id}',
    operationId: 'getBatchByBatchId',
    summary: 'Batch details',
    security: KEYS,
    request: { params: batchIdSchema },
    responses: { 200: json('The batch', batchResponse) },
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/batch/{batch_id}/results',
    operationId: 'getBatchByBatchIdResults',
    summary: 'Results of a completed batch, one per custom_id in submit order',
    description: '425 TOO_EARLY while the batch is not completed (pending, processing, failed or cancelled).',
    security: KEYS,
    request: { params: batchIdSchema },
    responses: { 200: json('Results', batchResultsResponse) },
    errors: [401, 404, 425],
  },
  {
    method: 'post',
    path: '/batch/{batch_id}/cancel',
    operationId: 'postBatchByBatchIdCancel',
    summary: 'Cancel a pending or processing batch',
    description: 'Items already running finish; no new item starts. 409 CONFLICT from completed, failed or cancelled.',
    security: KEYS,
    request: { params: batchIdSchema },
    responses: { 200: json('Cancelled', batchCancelledResponse) },
    errors: [401, 404, 409],
  },
  {
    method: 'get',
    path: '/providers',
    operationId: 'getProviders',
    summary: 'The vendors the project has credentials for (never the keys)',
    security: KEYS,
    responses: { 200: json('Configured vendors', providerListResponse) },
    errors: [401],
  },
  {
    method: 'post',
    path: '/providers',
    operationId: 'postProviders',
    summary: "Set the project's credentials for a vendor (upsert per project and vendor)",
    security: KEYS,
    request: { body: saveProviderSchema },
    responses: { 200: json('Stored', providerResponse) },
    errors: [400, 401],
  },
  {
    method: 'post',
    path: '/providers/test',
    operationId: 'postProvidersTest',
    summary: 'Check the credentials with one cheap authenticated vendor call (list models)',
    security: KEYS,
    request: { body: testProviderSchema },
    responses: { 200: json('Outcome; a refused key is success false', providerTestResponse) },
    errors: [400, 401, 403],
  },
  {
    method: 'get',
    path: '/logs/{tenant_id}/{project_id}',
    operationId: 'getLogsByTenantIdByProjectId',
    summary: 'Completion logs (batch items included), newest first',
    security: KEYS,
    request: { params: projectPathSchema, query: logsQuerySchema },
    responses: { 200: json('Logs', logListResponse) },
    errors: [400, 401, 403],
  },
  {
    method: 'get',
    path: '/stats/{tenant_id}/{project_id}',
    operationId: 'getStatsByTenantIdByProjectId',
    summary: 'Usage statistics over an optional time range',
    security: KEYS,
    request: { params: projectPathSchema, query: statsQuerySchema },
    responses: { 200: json('Statistics', statsResponse) },
    errors: [400, 401, 403],
  },
  {
    method: 'get',
    path: '/usage/daily',
    operationId: 'getUsageDaily',
    summary: 'Requests, tokens and cost per UTC day and model',
    description:
      'Whole UTC days from `from` to `to`, both included (default: the 30 days up to today; at most 366 days). ' +
      'Only days and models with requests appear.',
    security: KEYS,
    request: { query: dailyQuerySchema },
    responses: { 200: json('Usage per day and model', dailyUsageResponse) },
    errors: [400, 401],
  },
];

const document = buildContractDocument({
  title: 'LLM service',
  description:
    "Text completions routed to OpenAI (llm_vendor_a) or Anthropic (llm_vendor_b) by model name with the project's own vendor keys, " +
    'an OpenAI-compatible gateway (/chat/completions and /responses whole and streamed, /embeddings, /models; also with the single credential `Authorization: Bearer <public key>.<secret key>`; retries and fallbacks; cost by a price table; per-project budget and rate limits), ' +
    "Anthropic's Messages API (/messages, also with `x-api-key: <public key>.<secret key>`) through the same gateway, " +
    'asynchronous batch jobs with a signed completion webhook, vendor credential setup and test, usage logs and statistics. All paths start with /v1; every operation needs the four key headers (or, on the OpenAI-compatible routes, the single credential).',
  operations: [...gatewayOperations, ...messagesOperations, ...operations],
  tags: [
    {
      name: 'completions',
      description:
        "OpenAI-compatible chat and text completions, the Responses API, embeddings, Anthropic's Messages API, and the models they can use",
      paths: ['/chat', '/completions', '/models', '/responses', '/embeddings', '/messages'],
    },
    { name: 'batches', description: 'Batches of completions run in the background', paths: ['/batch'] },
    { name: 'limits', description: "The project's limits and provider fallbacks", paths: ['/limits', '/fallbacks'] },
    { name: 'providers', description: "The project's own vendor keys", paths: ['/providers'] },
    { name: 'usage', description: 'Request logs and usage statistics', paths: ['/logs', '/stats'] },
  ],
});

// The single credential is this service's own scheme, beside the shared ones.
const components = document.components as { securitySchemes: Record<string, unknown> };
components.securitySchemes = {
  ...components.securitySchemes,
  singleCredential: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: '<public key>.<secret key>',
    description: 'the project public key and secret key joined by a dot; names exactly one project',
  },
  anthropicApiKey: anthropicApiKeyScheme,
};

export const openapi = document;
