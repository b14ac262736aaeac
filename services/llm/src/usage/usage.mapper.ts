import { toIso } from '@platform/tenancy';
import type { DailyRow, GroupRow, LogRow, LogStatsRows } from './usage.repository';
import type { StatsRange } from './usage.types';

/** The API shapes of completion logs and stats: the only place stored logs become responses. */

export function toLog(row: LogRow) {
  return {
    id: row.id,
    model: row.model,
    provider: row.provider,
    status: row.status,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    totalTokens: row.total_tokens,
    latencyMs: row.latency_ms,
    error: row.error,
    batchId: row.batch_id,
    createdAt: toIso(row.created_at),
    costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
    cachedTokens: row.cached_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    requestId: row.request_id,
    attempt: row.attempt,
    stream: row.stream,
  };
}

const int = (value: string | null | undefined) => Number(value ?? 0);
const usd = (value: string | null | undefined) => Math.round(Number(value ?? 0) * 1e10) / 1e10;

export function toStats({ totals, byModel, byProvider }: LogStatsRows, range: StatsRange) {
  const group = (key: 'model' | 'provider') => (row: GroupRow) => ({
    [key]: row.key,
    requests: int(row.requests),
    totalTokens: int(row.total_tokens),
    costUsd: row.cost_usd === null ? null : usd(row.cost_usd),
  });
  return {
    totalRequests: int(totals?.total_requests),
    successfulRequests: int(totals?.successful_requests),
    failedRequests: int(totals?.failed_requests),
    promptTokens: int(totals?.prompt_tokens),
    completionTokens: int(totals?.completion_tokens),
    totalTokens: int(totals?.total_tokens),
    averageLatencyMs: Math.round(Number(totals?.average_latency_ms ?? 0) * 100) / 100,
    costUsd: usd(totals?.cost_usd),
    unpricedRequests: int(totals?.unpriced_requests),
    byModel: byModel.map(group('model')),
    byProvider: byProvider.map(group('provider')),
    ...(range.from ? { from: toIso(range.from) } : {}),
    ...(range.to ? { to: toIso(range.to) } : {}),
  };
}

/** One UTC day and model of usage; costUsd is null when none of its requests had a price. */
export function toDailyUsage(row: DailyRow) {
  return {
    day: row.day,
    model: row.model,
    requests: int(row.requests),
    successfulRequests: int(row.requests) - int(row.failed_requests),
    failedRequests: int(row.failed_requests),
    promptTokens: int(row.prompt_tokens),
    completionTokens: int(row.completion_tokens),
    totalTokens: int(row.total_tokens),
    costUsd: row.cost_usd === null ? null : usd(row.cost_usd),
  };
}

export type DailyUsageView = ReturnType<typeof toDailyUsage>;
export type LogView = ReturnType<typeof toLog>;
export type StatsView = ReturnType<typeof toStats>;
