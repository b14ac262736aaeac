import { Joi } from '@platform/tenancy';
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
