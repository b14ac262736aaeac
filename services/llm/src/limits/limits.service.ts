import type { Knex } from 'knex';
import { errors, type Tenant } from '@platform/tenancy';
import { routeModel } from '../completions/completions.service';
import type { LlmShared } from '../llm-shared';
import { priceOf } from '../usage/price-table';
import { promptCharacters, type ChatRequest } from '../vendors/chat-types';
import type { ProviderType } from '../vendors/vendor-types';
import { toLimits } from './limits.mapper';
import { readFallbacks, readLimits, writeFallbacks, writeLimits, type LimitSettings } from './limits.repository';

/** A fallback list (a request's or the project's default): known models, and not too many; their vendors. */
export function checkFallbacks(runtime: LlmShared, fallbacks: string[]): ProviderType[] {
  const providers = fallbacks.map((model, i) => routeModel(model, `fallbacks.${i}`));
  if (fallbacks.length > runtime.config.gatewayMaxFallbacks) {
    throw errors.validation('Too many fallbacks', [
      { path: 'fallbacks', message: `at most ${runtime.config.gatewayMaxFallbacks} fallback models` },
    ]);
  }
  return providers;
}

/**
 * The most a request can cost on any model it may end up on: every character of its messages a
 * prompt token (an upper bound) and every allowed output token, at the dearest input rate.
 */
export function worstCaseCostUsd(request: ChatRequest, models: string[], defaultMaxTokens: number): number {
  const prompt = promptCharacters(request);
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

/** The project's limits and meters, with the spend this replica has not settled yet. */
export async function getLimits(db: Knex, runtime: LlmShared, tenant: Tenant) {
  await runtime.meters.catchUp(tenant);
  return toLimits(await readLimits(db, tenant));
}

/** Replaces the project's limits; this replica's lease, drawn under the old ones, is returned at once. */
export async function putLimits(db: Knex, runtime: LlmShared, tenant: Tenant, limits: LimitSettings) {
  await writeLimits(db, tenant, limits);
  runtime.admissions.forget(tenant);
  return getLimits(db, runtime, tenant);
}

export async function getFallbacks(db: Knex, tenant: Tenant) {
  return { fallbacks: await readFallbacks(db, tenant) };
}

/** Replaces the project's default fallbacks; this replica's lease, which carries the old ones, is returned at once. */
export async function putFallbacks(db: Knex, runtime: LlmShared, tenant: Tenant, fallbacks: string[]) {
  checkFallbacks(runtime, fallbacks);
  await writeFallbacks(db, tenant, fallbacks);
  runtime.admissions.forget(tenant);
  return { fallbacks };
}
