import type { Knex } from 'knex';
import { AppError, errors, type Tenant } from '@platform/tenancy';
import { routeModel } from '../vendors/routing';
import { priceOf } from '../usage/price-table';
import { promptCharacters, type ChatRequest } from '../vendors/chat-types';
import type { ProviderType } from '../vendors/vendor-types';
import { refusalAt } from './admission-decision';
import { toAdmissionState, toLimits } from './limits.mapper';
import { readFallbacks, readLimits, writeFallbacks, writeLimits, type LimitSettings } from './limits.repository';
import type { SpendLimits } from './spend';

/** A fallback list (a request's or the project's default): known models, and not too many; their vendors. */
export function checkFallbacks(maxFallbacks: number, fallbacks: string[]): ProviderType[] {
  const providers = fallbacks.map((model, i) => routeModel(model, `fallbacks.${i}`));
  if (fallbacks.length > maxFallbacks) {
    throw errors.validation('Too many fallbacks', [
      { path: 'fallbacks', message: `at most ${maxFallbacks} fallback models` },
    ]);
  }
  return providers;
}

/**
 * A model without a price would spend without being counted, so a project with a budget cannot
 * use it: the refusal names the model and what the caller can do.
 */
export function unpricedModel(model: string, path: string): AppError {
  return errors.validation(`Model "${model}" has no price, so the project's monthly budget cannot be kept`, [
    {
      path,
      message:
        `"${model}" is not in the gateway's price table (GET /v1/models lists the priced models): use a priced ` +
        'model, or remove monthlyBudgetUsd (PUT /v1/limits); a model is priced by adding it to the price table',
    },
  ]);
}

/** The request's fields that bound its cost; a chat request and a completion alike. */
type Sized = { messages: readonly object[] } & Partial<Pick<ChatRequest, 'max_tokens' | 'max_completion_tokens' | 'n'>>;

/**
 * The most a request can cost on any model it may end up on: every character of its messages a
 * prompt token (an upper bound) and every allowed output token, at the dearest input rate. Under a
 * budget (`budgeted`) a model without a price is refused (`unpricedModel`); without one it adds nothing.
 */
export function worstCaseCostUsd(request: Sized, models: string[], defaultMaxTokens: number, budgeted = false): number {
  const prompt = promptCharacters(request as ChatRequest);
  const output = (request.max_completion_tokens ?? request.max_tokens ?? defaultMaxTokens) * (request.n ?? 1);
  let worst = 0;
  for (const [i, model] of models.entries()) {
    const price = priceOf(model);
    if (!price) {
      if (budgeted) throw unpricedModel(model, i === 0 ? 'model' : 'fallbacks');
      continue;
    }
    const cost = prompt * Math.max(price.input, price.cacheWrite) + output * price.output;
    worst = Math.max(worst, cost / 1e6);
  }
  return Math.round(worst * 1e10) / 1e10;
}

/**
 * A batch under a budget: refused at once (429) when the budget is already spent, or (400) when
 * it names a model without a price.
 */
export async function checkBatchBudget(db: Knex, tenant: Tenant, models: string[]): Promise<void> {
  const row = await readLimits(db, tenant);
  if (!row || row.monthly_budget_usd === null) return;
  const unpriced = models.findIndex((model) => !priceOf(model));
  if (unpriced >= 0) throw unpricedModel(models[unpriced], `requests.${unpriced}.model`);
  const state = toAdmissionState(row);
  const budgetOnly = { ...state, requestsPerMinute: null, tokensPerMinute: null };
  const refused = refusalAt(budgetOnly, state.spentUsd + state.reservedUsd, 0);
  if (refused) throw refused;
}

/** The project's limits and meters, with the spend this replica has not settled yet. */
export async function getLimits(db: Knex, limits: SpendLimits, tenant: Tenant) {
  await limits.meters.catchUp(tenant);
  return toLimits(await readLimits(db, tenant));
}

/** Replaces the project's limits; this replica's lease, drawn under the old ones, is returned at once. */
export async function putLimits(db: Knex, limits: SpendLimits, tenant: Tenant, settings: LimitSettings) {
  await writeLimits(db, tenant, settings);
  limits.admissions.forget(tenant);
  return getLimits(db, limits, tenant);
}

export async function getFallbacks(db: Knex, tenant: Tenant) {
  return { fallbacks: await readFallbacks(db, tenant) };
}

/** Replaces the project's default fallbacks; this replica's lease, which carries the old ones, is returned at once. */
export async function putFallbacks(
  db: Knex,
  limits: SpendLimits,
  maxFallbacks: number,
  tenant: Tenant,
  fallbacks: string[],
) {
  checkFallbacks(maxFallbacks, fallbacks);
  await writeFallbacks(db, tenant, fallbacks);
  limits.admissions.forget(tenant);
  return { fallbacks };
}
