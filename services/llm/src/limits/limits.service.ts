import type { Knex } from 'knex';
import { AppError, toIso, type Tenant } from '@platform/tenancy';
import { priceOf } from '../usage/price-table';
import type { ChatRequest } from '../vendors/chat-types';
import { admitRequest, readLimits, writeLimits, type LimitSettings } from './limits.repository';

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

const secondsUntil = (from: Date, to: Date) => Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000));

/** Which limit refused the request, and when trying again makes sense. */
async function refusal(db: Knex, tenant: Tenant): Promise<AppError> {
  const state = await readLimits(db, tenant);
  if (state && state.monthlyBudgetUsd !== null && state.spentUsd + state.reservedUsd >= state.monthlyBudgetUsd) {
    const nextMonth = new Date(Date.UTC(state.month.getUTCFullYear(), state.month.getUTCMonth() + 1, 1));
    return new AppError('BUDGET_EXCEEDED', "The project's monthly budget is spent", {
      headers: { 'Retry-After': String(secondsUntil(state.now, nextMonth)) },
    });
  }
  const which =
    state && state.tokensPerMinute !== null && state.windowTokens >= state.tokensPerMinute
      ? 'tokensPerMinute'
      : 'requestsPerMinute';
  const retry = state ? secondsUntil(state.now, new Date(state.windowStart.getTime() + 60_000)) : 1;
  return new AppError('RATE_LIMITED', `The project's ${which} limit is reached`, {
    headers: { 'Retry-After': String(retry) },
  });
}

/**
 * Admits the request under the project's limits, reserving `reserveUsd`; else 429 naming the
 * limit. Returns the project's default fallback models.
 */
export async function admit(db: Knex, tenant: Tenant, reserveUsd: number): Promise<string[]> {
  const fallbacks = await admitRequest(db, tenant, reserveUsd);
  if (!fallbacks) throw await refusal(db, tenant);
  return fallbacks;
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
