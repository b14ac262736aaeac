import { Joi } from '@platform/tenancy';
import type { DailyUsageView, LogView, StatsView } from './usage.mapper';

const dateTime = () => Joi.string().meta({ format: 'date-time' });
const count = () => Joi.number().integer().min(0).required();
const usd = () => Joi.number().min(0);

export const logListResponse = Joi.object({
  logs: Joi.array()
    .items(
      Joi.object<LogView>({
        id: Joi.string().required(),
        model: Joi.string().required().description('the requested model'),
        provider: Joi.string().valid('openai', 'anthropic').required(),
        status: Joi.string().valid('success', 'error').required(),
        promptTokens: count(),
        completionTokens: count(),
        totalTokens: count(),
        latencyMs: count(),
        error: Joi.string().allow('', null).required(),
        batchId: Joi.string().allow(null).required(),
        createdAt: dateTime().required(),
        costUsd: usd().allow(null).required().description('by the price table; null for a model it has no price for'),
        cachedTokens: count().description('of promptTokens: read from the vendor cache'),
        cacheWriteTokens: count().description('of promptTokens: written to the vendor cache (Anthropic)'),
        requestId: Joi.string()
          .allow(null)
          .required()
          .description('the same on every attempt (retry, fallback) of one /chat/completions request'),
        attempt: Joi.number()
          .integer()
          .min(1)
          .allow(null)
          .required()
          .description('counts attempts across retries and fallbacks'),
        stream: Joi.boolean().required(),
      }),
    )
    .required(),
  total: count(),
  limit: count(),
  offset: count(),
}).id('LogList');

const group = (key: 'model' | 'provider') =>
  Joi.object({
    [key]: Joi.string().required(),
    requests: count(),
    totalTokens: count(),
    costUsd: usd().allow(null).required(),
  });

export const statsResponse = Joi.object<StatsView>({
  totalRequests: count(),
  successfulRequests: count(),
  failedRequests: count(),
  promptTokens: count(),
  completionTokens: count(),
  totalTokens: count(),
  averageLatencyMs: Joi.number().min(0).required(),
  costUsd: usd().required().description('sum over requests whose model has a price'),
  unpricedRequests: count().description('successful requests of models without a price (cost null)'),
  byModel: Joi.array().items(group('model')).required(),
  byProvider: Joi.array().items(group('provider')).required(),
  from: dateTime(),
  to: dateTime(),
}).id('Stats');

export const dailyUsageResponse = Joi.object({
  from: Joi.string().required().description('First UTC day, included'),
  to: Joi.string().required().description('Last UTC day, included'),
  days: Joi.array()
    .items(
      Joi.object<DailyUsageView>({
        day: Joi.string().required().description('UTC day, YYYY-MM-DD'),
        model: Joi.string().required().description('the requested model'),
        requests: count(),
        successfulRequests: count(),
        failedRequests: count(),
        promptTokens: count(),
        completionTokens: count(),
        totalTokens: count(),
        costUsd: usd().allow(null).required().description('by the price table; null when no request had a price'),
      }),
    )
    .required()
    .description('One entry per day and model that had requests, oldest day first; days without requests are left out'),
}).id('DailyUsage');
