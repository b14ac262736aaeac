import { toIso } from '@platform/tenancy';
import type { LimitState } from './limits.repository';

/** The API shape of a project's limits and meters; a project without a row has no limits and no spend. */
export function toLimits(state: LimitState | undefined) {
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

export type LimitsView = ReturnType<typeof toLimits>;
