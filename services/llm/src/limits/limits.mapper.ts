import { toIso } from '@platform/tenancy';
import type { LimitSettings, ProjectLimitsRow } from './limits.repository';

/** A project's limits and meters as of the database's `now`. */
export interface LimitState extends LimitSettings {
  month: Date;
  spentUsd: number;
  reservedUsd: number;
  windowStart: Date;
  windowRequests: number;
  windowTokens: number;
  /** The database's clock, which every replica shares. */
  now: Date;
}

/** The project's row as admission sees it: limits, meters as of now, and its default fallbacks. */
export interface AdmissionState extends LimitState {
  fallbacks: string[];
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
  const month = row?.month ?? new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  return {
    monthlyBudgetUsd: row ? numberOrNull(row.monthly_budget_usd) : null,
    requestsPerMinute: row?.requests_per_minute ?? null,
    tokensPerMinute: row ? numberOrNull(row.tokens_per_minute) : null,
    month: toIso(month),
    spentThisMonthUsd: row ? Number(row.spent_usd) : 0,
    reservedUsd: row ? Number(row.reserved_usd) : 0,
  };
}

export type LimitsView = ReturnType<typeof toLimits>;
