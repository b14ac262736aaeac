import type { Tenant } from '@platform/tenancy';
import type { LlmShared } from '../llm-shared';
import type { CompletionLogEntry } from '../usage/usage.types';
import type { CompletionRequest } from '../completions/completions.schemas';
import { worstCaseCostUsd } from './limits.service';

/**
 * Admits one vendor call of `/v1/completions` or of a batch item under the project's limits, as
 * the gateway admits a chat request: its worst-case cost on its one model is reserved (no
 * fallbacks). Resolves to what it reserved; rejects with the limit's 4xx. `settleSpend` must follow.
 */
export async function admitSpend(runtime: LlmShared, tenant: Tenant, request: CompletionRequest): Promise<number> {
  if (!runtime.config.gatewayLimits) return 0;
  const admitted = await runtime.admissions.admit(tenant, (_defaults, budgeted) =>
    worstCaseCostUsd(request, [request.model], runtime.config.defaultMaxTokens, budgeted),
  );
  return admitted.reservedUsd;
}

/** Turns the call's reservation into what its log entry says it cost (no entry: nothing spent). */
export function settleSpend(
  runtime: LlmShared,
  tenant: Tenant,
  reservedUsd: number,
  log: CompletionLogEntry | undefined,
): void {
  if (!runtime.config.gatewayLimits) return;
  const tokens = log ? log.usage.prompt_tokens + log.usage.completion_tokens : 0;
  runtime.admissions.settled(tenant, tokens);
  runtime.meters.add(tenant, { spentUsd: log?.costUsd ?? 0, releasedUsd: reservedUsd, tokens });
}
