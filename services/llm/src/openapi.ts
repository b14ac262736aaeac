import { buildOpenApiDocument, errorResponses, jsonBody, jsonResponse, KEYS } from '@platform/tenancy';
import { gatewayPaths, gatewaySchemas, singleCredentialScheme } from './openapi-gateway';
import { ref, schemas } from './openapi-schemas';

const pathParam = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});
const queryParam = (name: string, schema: object, description?: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
const batchId = pathParam('batch_id', 'the batchId returned at submit');
const projectPath = [
  pathParam('tenant_id', 'must equal x-tenant-id, else 403'),
  pathParam('project_id', 'must equal x-project-id, else 403'),
];
const page = (defaultLimit: number) => [
  queryParam('limit', { type: 'integer', minimum: 1, maximum: 100, default: defaultLimit }),
  queryParam('offset', { type: 'integer', minimum: 0, default: 0 }),
];

const document = buildOpenApiDocument({
  title: 'LLM service',
  description:
    "Text completions routed to OpenAI (llm_vendor_a) or Anthropic (llm_vendor_b) by model name with the project's own vendor keys, " +
    'an OpenAI-compatible gateway (/chat/completions whole and streamed, /models; also with the single credential `Authorization: Bearer <public key>.<secret key>`; retries and fallbacks; cost by a price table; per-project budget and rate limits), ' +
    'asynchronous batch jobs with a signed completion webhook, vendor credential setup and test, usage logs and statistics. All paths start with /v1; every operation needs the four key headers (or, on the OpenAI-compatible routes, the single credential).',
  schemas: { ...schemas, ...gatewaySchemas },
  paths: {
    ...gatewayPaths,
    '/completions': {
      post: {
        summary: 'Create a completion',
        security: KEYS,
        requestBody: jsonBody(ref('CompletionRequest')),
        responses: {
          '200': jsonResponse('The completion', ref('Completion')),
          ...errorResponses(400, 401, 403, 500, 502),
        },
        description:
          "403 PROVIDER_NOT_CONFIGURED when the project has no key for the model's vendor; 500 VENDOR_ERROR with the vendor's message; 502 VENDOR_ERROR when the vendor cannot be reached or times out (LLM_VENDOR_TIMEOUT_MS).",
      },
    },
    '/batch': {
      post: {
        summary: 'Submit a batch',
        security: KEYS,
        requestBody: jsonBody(ref('BatchSubmit')),
        responses: {
          '201': jsonResponse('Stored and queued (pending)', ref('BatchCreated')),
          ...errorResponses(400, 401, 403, 413),
        },
        description:
          'Every request is checked first: unique custom_id, known model, a configured vendor (403 PROVIDER_NOT_CONFIGURED otherwise).',
      },
      get: {
        summary: 'List batches, newest first',
        security: KEYS,
        parameters: [
          queryParam('status', { type: 'string', enum: ['pending', 'processing', 'completed', 'failed', 'cancelled'] }),
          ...page(20),
        ],
        responses: { '200': jsonResponse('Batches', ref('BatchList')), ...errorResponses(400, 401) },
      },
    },
    '/batch/{batch_id}': {
      get: {
        summary: 'Batch details',
        security: KEYS,
        parameters: [batchId],
        responses: { '200': jsonResponse('The batch', ref('Batch')), ...errorResponses(401, 404) },
      },
    },
    '/batch/{batch_id}/results': {
      get: {
        summary: 'Results of a completed batch, one per custom_id in submit order',
        security: KEYS,
        parameters: [batchId],
        responses: { '200': jsonResponse('Results', ref('BatchResults')), ...errorResponses(401, 404, 425) },
        description: '425 TOO_EARLY while the batch is not completed (pending, processing, failed or cancelled).',
      },
    },
    '/batch/{batch_id}/cancel': {
      post: {
        summary: 'Cancel a pending or processing batch',
        security: KEYS,
        parameters: [batchId],
        responses: { '200': jsonResponse('Cancelled', ref('BatchCancelled')), ...errorResponses(401, 404, 409) },
        description:
          'Items already running finish; no new item starts. 409 CONFLICT from completed, failed or cancelled.',
      },
    },
    '/providers': {
      post: {
        summary: "Set the project's credentials for a vendor (upsert per project and vendor)",
        security: KEYS,
        requestBody: jsonBody(ref('ProviderInput')),
        responses: { '200': jsonResponse('Stored', ref('Provider')), ...errorResponses(400, 401) },
      },
    },
    '/providers/test': {
      post: {
        summary: 'Check the credentials with one cheap authenticated vendor call (list models)',
        security: KEYS,
        requestBody: jsonBody(ref('ProviderTestInput')),
        responses: {
          '200': jsonResponse('Outcome; a refused key is success false', ref('ProviderTestResult')),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    '/logs/{tenant_id}/{project_id}': {
      get: {
        summary: 'Completion logs (batch items included), newest first',
        security: KEYS,
        parameters: [...projectPath, ...page(50)],
        responses: { '200': jsonResponse('Logs', ref('LogList')), ...errorResponses(400, 401, 403) },
      },
    },
    '/stats/{tenant_id}/{project_id}': {
      get: {
        summary: 'Usage statistics over an optional time range',
        security: KEYS,
        parameters: [
          ...projectPath,
          queryParam('from', { type: 'string', format: 'date-time' }, 'inclusive'),
          queryParam('to', { type: 'string', format: 'date-time' }, 'inclusive'),
        ],
        responses: { '200': jsonResponse('Statistics', ref('Stats')), ...errorResponses(400, 401, 403) },
      },
    },
  },
});

const components = document.components as { securitySchemes: Record<string, unknown> };
components.securitySchemes = { ...components.securitySchemes, singleCredential: singleCredentialScheme };

export const openapi = document;
