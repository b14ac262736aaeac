import type { Tenant } from '@platform/tenancy';
import type { CompletionLogEntry } from '../usage/usage.types';
import type { CompletionRequest } from '../completions/completions.schemas';
import type { Admissions } from './admissions';
import type { MeterSettler } from './meter-settler';
import { worstCaseCostUsd } from './limits.service';

/** The project limits of one instance: off (`enabled` false) or kept by its admissions and meters. */
export interface SpendLimits {
  enabled: boolean;
  admissions: Admissions;
  meters: MeterSettler;
  /** The output a request that sets no maximum may use, counted in its worst-case cost. */
  defaultMaxTokens: number;
}

/**
 * Admits one vendor call of `/v1/completions` or of a batch item under the project's limits, as
 * the gateway admits a chat request: its worst-case cost on its one model is reserved (no
 * fallbacks). Resolves to what it reserved; rejects with the limit's 4xx. `settleSpend` must follow.
 */
export async function admitSpend(limits: SpendLimits, tenant: Tenant, request: CompletionRequest): Promise<number> {
  if (!limits.enabled) return 0;
  const admitted = await limits.admissions.admit(tenant, (_defaults, budgeted) =>
    worstCaseCostUsd(request, [request.model], limits.defaultMaxTokens, budgeted),
  );
  return admitted.reservedUsd;
}

/** Turns the call's reservation into what its log entry says it cost (no entry: nothing spent). */
export function settleSpend(
  limits: SpendLimits,
  tenant: Tenant,
  reservedUsd: number,
  log: CompletionLogEntry | undefined,
): void {
  settleTokens(limits, tenant, reservedUsd, {
    spentUsd: log?.costUsd ?? 0,
    tokens: log ? log.usage.prompt_tokens + log.usage.completion_tokens : 0,
  });
}

/** Turns a reservation into what was spent and used: the lease learns the tokens, the meters the money. */
export function settleTokens(
  limits: SpendLimits,
  tenant: Tenant,
  reservedUsd: number,
  used: { spentUsd: number; tokens: number },
): void {
  if (!limits.enabled) return;
  limits.admissions.settled(tenant, used.tokens);
  limits.meters.add(tenant, { spentUsd: used.spentUsd, releasedUsd: reservedUsd, tokens: used.tokens });
}
