import type { Knex } from 'knex';
import type { Tenant } from '@platform/tenancy';
import { priceOf } from '../usage/price-table';
import type { ChatRequest } from '../vendors/chat-types';
import { toLimits } from './limits.mapper';
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
  return toLimits(await readLimits(db, tenant));
}

export async function putLimits(db: Knex, tenant: Tenant, limits: LimitSettings) {
  await writeLimits(db, tenant, limits);
  return getLimits(db, tenant);
}
