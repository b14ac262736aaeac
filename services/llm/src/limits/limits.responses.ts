import { Joi } from '@platform/tenancy';
import type { LimitsView } from './limits.mapper';

const usd = () => Joi.number().min(0);

export const limitsResponse = Joi.object<LimitsView>({
  monthlyBudgetUsd: usd().allow(null).required().description('null: no budget'),
  requestsPerMinute: Joi.number().integer().allow(null).required(),
  tokensPerMinute: Joi.number().integer().allow(null).required(),
  month: Joi.string().meta({ format: 'date-time' }).required().description('start of the current month (UTC)'),
  spentThisMonthUsd: usd().required(),
  reservedUsd: usd().required().description('held by requests in flight (their worst-case cost)'),
}).id('Limits');

// The request's Fallbacks component leaves unknown keys open; the answer is closed, so it is described here.
export const fallbacksResponse = Joi.object<{ fallbacks: string[] }>({
  fallbacks: Joi.array().items(Joi.string()).max(20).required(),
});
