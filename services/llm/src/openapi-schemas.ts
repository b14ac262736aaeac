import type { JsonSchema } from '@platform/tenancy';

/** Component schemas of the LLM service's OpenAPI document. */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const dateTime = { type: 'string', format: 'date-time' };
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' };
const int = { type: 'integer', minimum: 0 };
const usd = { type: 'number', minimum: 0 };
const nullableUsd = { type: ['number', 'null'], minimum: 0 };
const batchStatus = { type: 'string', enum: ['pending', 'processing', 'completed', 'failed', 'cancelled'] };
const providerType = {
  type: 'string',
  enum: ['openai', 'anthropic', 'llm_vendor_a', 'llm_vendor_b'],
  description: 'openai (= llm_vendor_a) or anthropic (= llm_vendor_b); responses use the canonical name',
};

export { ref };

export const schemas: Record<string, JsonSchema> = {
  Message: {
    type: 'object',
    required: ['role', 'content'],
    properties: {
      role: {
        type: 'string',
        enum: ['system', 'developer', 'user', 'assistant'],
        description: "for claude-* models, system messages go to Anthropic's `system` field",
      },
      content: { type: 'string' },
    },
  },
  Usage: {
    type: 'object',
    required: ['prompt_tokens', 'completion_tokens', 'total_tokens'],
    properties: { prompt_tokens: int, completion_tokens: int, total_tokens: int },
    description:
      'OpenAI naming for both vendors (Anthropic input_tokens + cached input tokens -> prompt_tokens, output_tokens -> completion_tokens)',
  },
  CompletionRequest: {
    type: 'object',
    required: ['model', 'messages'],
    properties: {
      model: {
        type: 'string',
        description: 'gpt-*, o1*, o3*, o4*, chatgpt-* route to openai; claude-* to anthropic; anything else is 400',
      },
      messages: { type: 'array', minItems: 1, items: ref('Message') },
      max_tokens: { type: 'integer', minimum: 1, description: 'anthropic default 1024 when omitted' },
      temperature: { type: 'number', minimum: 0, maximum: 2, default: 1.0 },
    },
  },
  Completion: {
    type: 'object',
    required: ['id', 'completion', 'model', 'provider', 'usage', 'createdAt'],
    properties: {
      id: { type: 'string', description: 'also the id of its completion log record' },
      completion: { type: 'string' },
      model: { type: 'string', description: 'the model the vendor reports' },
      provider: { type: 'string', enum: ['openai', 'anthropic'] },
      usage: ref('Usage'),
      createdAt: dateTime,
    },
  },
  BatchRequestItem: {
    type: 'object',
    required: ['custom_id', 'model', 'messages'],
    properties: {
      custom_id: { type: 'string', minLength: 1, maxLength: 256, description: 'unique within the batch' },
      model: { type: 'string' },
      messages: { type: 'array', minItems: 1, items: ref('Message') },
      max_tokens: { type: 'integer', minimum: 1 },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
    },
  },
  BatchSubmit: {
    type: 'object',
    required: ['requests'],
    properties: {
      requests: {
        type: 'array',
        minItems: 1,
        maxItems: 10000,
        items: ref('BatchRequestItem'),
        description: 'at most LLM_BATCH_MAX_REQUESTS (default 10,000)',
      },
      webhook_url: {
        type: 'string',
        format: 'uri',
        description:
          'http(s) URL called once the batch is completed or failed: POST {event: "batch.completed", batchId, status, requestCount, completedCount, failedCount, completedAt}, ' +
          'signed `X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` with the project\'s webhookSecret, `X-Webhook-Id` stable across retries; ' +
          'retried with exponential backoff (6 attempts over an hour); addresses resolving to private, loopback or link-local ranges are refused unless allow-listed',
      },
    },
  },
  BatchCreated: {
    type: 'object',
    required: ['batchId', 'status', 'requestCount', 'createdAt'],
    properties: { batchId: { type: 'string' }, status: batchStatus, requestCount: int, createdAt: dateTime },
  },
  Batch: {
    type: 'object',
    required: ['batchId', 'status', 'requestCount', 'completedCount', 'failedCount', 'createdAt', 'completedAt'],
    properties: {
      batchId: { type: 'string' },
      status: batchStatus,
      requestCount: int,
      completedCount: { ...int, description: 'items that succeeded' },
      failedCount: { ...int, description: 'items whose vendor call failed' },
      createdAt: dateTime,
      completedAt: { ...nullableDateTime, description: 'when the batch reached completed or failed' },
    },
  },
  BatchList: {
    type: 'object',
    required: ['batches', 'total', 'limit', 'offset'],
    properties: { batches: { type: 'array', items: ref('Batch') }, total: int, limit: int, offset: int },
  },
  BatchResults: {
    type: 'object',
    required: ['batchId', 'status', 'results'],
    properties: {
      batchId: { type: 'string' },
      status: { const: 'completed' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['custom_id', 'status', 'completion', 'model', 'usage'],
          properties: {
            custom_id: { type: 'string' },
            status: { type: 'string', enum: ['succeeded', 'failed'] },
            completion: { type: ['string', 'null'] },
            model: { type: 'string' },
            usage: ref('Usage'),
            error: { type: 'string', description: "the vendor's message, for a failed item" },
          },
        },
      },
    },
  },
  BatchCancelled: {
    type: 'object',
    required: ['batchId', 'status', 'message'],
    properties: { batchId: { type: 'string' }, status: { const: 'cancelled' }, message: { type: 'string' } },
  },
  ProviderInput: {
    type: 'object',
    required: ['providerType', 'apiKey'],
    properties: {
      providerType,
      apiKey: { type: 'string', description: 'stored encrypted, never returned' },
      organizationId: { type: 'string', description: 'openai only; 400 for anthropic' },
    },
  },
  Provider: {
    type: 'object',
    required: ['provider'],
    properties: {
      provider: {
        type: 'object',
        required: ['id', 'providerType', 'configured', 'createdAt'],
        properties: {
          id: { type: 'string' },
          providerType: { type: 'string', enum: ['openai', 'anthropic'] },
          configured: { type: 'boolean' },
          createdAt: dateTime,
        },
      },
    },
  },
  ProviderTestInput: {
    type: 'object',
    required: ['providerType'],
    properties: {
      providerType,
      apiKey: { type: 'string', description: 'optional: test this key instead of the stored one (it is not stored)' },
      organizationId: { type: 'string' },
    },
  },
  ProviderTestResult: {
    type: 'object',
    required: ['success', 'message', 'providerType'],
    properties: {
      success: { type: 'boolean' },
      message: { type: 'string' },
      providerType: { type: 'string', enum: ['openai', 'anthropic'] },
    },
  },
  LogList: {
    type: 'object',
    required: ['logs', 'total', 'limit', 'offset'],
    properties: {
      logs: {
        type: 'array',
        items: {
          type: 'object',
          required: [
            'id',
            'model',
            'provider',
            'status',
            'promptTokens',
            'completionTokens',
            'totalTokens',
            'latencyMs',
            'error',
            'batchId',
            'createdAt',
            'costUsd',
            'cachedTokens',
            'cacheWriteTokens',
            'requestId',
            'attempt',
            'stream',
          ],
          properties: {
            id: { type: 'string' },
            model: { type: 'string', description: 'the requested model' },
            provider: { type: 'string', enum: ['openai', 'anthropic'] },
            status: { type: 'string', enum: ['success', 'error'] },
            promptTokens: int,
            completionTokens: int,
            totalTokens: int,
            latencyMs: int,
            error: { type: ['string', 'null'] },
            batchId: { type: ['string', 'null'] },
            createdAt: dateTime,
            costUsd: {
              ...usd,
              type: ['number', 'null'],
              description: 'by the price table; null for a model it has no price for',
            },
            cachedTokens: { ...int, description: 'of promptTokens: read from the vendor cache' },
            cacheWriteTokens: { ...int, description: 'of promptTokens: written to the vendor cache (Anthropic)' },
            requestId: {
              type: ['string', 'null'],
              description: 'the same on every attempt (retry, fallback) of one /chat/completions request',
            },
            attempt: {
              type: ['integer', 'null'],
              minimum: 1,
              description: 'counts attempts across retries and fallbacks',
            },
            stream: { type: 'boolean' },
          },
        },
      },
      total: int,
      limit: int,
      offset: int,
    },
  },
  Stats: {
    type: 'object',
    required: [
      'totalRequests',
      'successfulRequests',
      'failedRequests',
      'promptTokens',
      'completionTokens',
      'totalTokens',
      'averageLatencyMs',
      'costUsd',
      'unpricedRequests',
      'byModel',
      'byProvider',
    ],
    properties: {
      totalRequests: int,
      successfulRequests: int,
      failedRequests: int,
      promptTokens: int,
      completionTokens: int,
      totalTokens: int,
      averageLatencyMs: { type: 'number', minimum: 0 },
      costUsd: { ...usd, description: 'sum over requests whose model has a price' },
      unpricedRequests: { ...int, description: 'successful requests of models without a price (cost null)' },
      byModel: {
        type: 'array',
        items: {
          type: 'object',
          required: ['model', 'requests', 'totalTokens', 'costUsd'],
          properties: { model: { type: 'string' }, requests: int, totalTokens: int, costUsd: nullableUsd },
        },
      },
      byProvider: {
        type: 'array',
        items: {
          type: 'object',
          required: ['provider', 'requests', 'totalTokens', 'costUsd'],
          properties: { provider: { type: 'string' }, requests: int, totalTokens: int, costUsd: nullableUsd },
        },
      },
      from: dateTime,
      to: dateTime,
    },
  },
};
