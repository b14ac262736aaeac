import type { Knex } from 'knex';
import { toIso, type Tenant } from '@platform/tenancy';
import { priceOf } from '../usage/price-table';
import type { ChatRequest } from '../vendors/chat-types';
import { readLimits, writeLimits, type LimitSettings } from './limits.repository';

/**
 * The most a request can cost on any model it may end up on: every character of its messages a
 * prompt token (an upper bound) and every allowed output token, at the dearest input rate.
 */
export function worstCaseCostUsd(request: ChatRequest, models: string[], defaultMaxTokens: number): number {
  const prompt = JSON.stringify(request.messages).length;
  const output = (request.max_completion_tokens ?? request.max_tokens ?? defaultMaxTokens) * (request.n ?? 1);
  let worst = 0;
  for (const model of models) {
    const price = priceOf(model);
    if (!price) continue;
    const cost = prompt * Math.max(price.input, price.cacheWrite) + output * price.output;
    worst = Math.max(worst, cost / 1e6);
  }
  return Math.round(worst * 1e10) / 1e10;
}

export async function getLimits(db: Knex, tenant: Tenant) {
  const state = await readLimits(db, tenant);
  const month = state?.month ?? new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  return {
    monthlyBudgetUsd: state?.monthlyBudgetUsd ?? null,
    requestsPerMinute: state?.requestsPerMinute ?? null,
    tokensPerMinute: state?.tokensPerMinute ?? null,
    month: toIso(month),
    spentThisMonthUsd: state?.spentUsd ?? 0,
    reservedUsd: state?.reservedUsd ?? 0,
  };
}

export async function putLimits(db: Knex, tenant: Tenant, limits: LimitSettings) {
  await writeLimits(db, tenant, limits);
  return getLimits(db, tenant);
}
