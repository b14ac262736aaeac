import { toIso } from '@platform/tenancy';
import type { LimitSettings, ProjectLimitsRow } from './limits.repository';

/** The project's row as admission sees it: limits, meters as of the database's `now`, and its default fallbacks. */
export interface AdmissionState extends LimitSettings {
  fallbacks: string[];
  month: Date;
  spentUsd: number;
  reservedUsd: number;
  windowStart: Date;
  windowRequests: number;
  windowTokens: number;
  /** The database's clock, which every replica shares. */
  now: Date;
}

const numberOrNull = (value: string | number | null) => (value === null ? null : Number(value));

export function toAdmissionState(row: ProjectLimitsRow): AdmissionState {
  return {
    monthlyBudgetUsd: numberOrNull(row.monthly_budget_usd),
    requestsPerMinute: row.requests_per_minute,
    tokensPerMinute: numberOrNull(row.tokens_per_minute),
    fallbacks: row.fallbacks,
    month: row.month,
    spentUsd: Number(row.spent_usd),
    reservedUsd: Number(row.reserved_usd),
    windowStart: row.window_start,
    windowRequests: Number(row.window_requests),
    windowTokens: Number(row.window_tokens),
    now: row.now,
  };
}

/** The API shape of a project's limits and meters; a project without a row has no limits and no spend. */
export function toLimits(row: ProjectLimitsRow | undefined) {
  const state = row && toAdmissionState(row);
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
