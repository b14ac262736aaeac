import { toIso } from '@platform/tenancy';
import type { aggregateLogs, GroupRow } from './usage.repository';
import type { CompletionLogEntry, StatsRange } from './usage.types';

/** The API shapes of completion logs and stats: the only place stored logs become responses. */

export function toLogResponse(entry: CompletionLogEntry) {
  return {
    id: entry.id,
    model: entry.model,
    provider: entry.provider,
    status: entry.status,
    promptTokens: entry.usage.prompt_tokens,
    completionTokens: entry.usage.completion_tokens,
    totalTokens: entry.usage.total_tokens,
    latencyMs: entry.latencyMs,
    error: entry.error,
    batchId: entry.batchId,
    createdAt: toIso(entry.createdAt),
    costUsd: entry.costUsd ?? null,
    cachedTokens: entry.cachedTokens ?? 0,
    cacheWriteTokens: entry.cacheWriteTokens ?? 0,
    requestId: entry.requestId ?? null,
    attempt: entry.attempt ?? null,
    stream: entry.stream ?? false,
  };
}

const int = (value: string | null | undefined) => Number(value ?? 0);
const usd = (value: string | null | undefined) => Math.round(Number(value ?? 0) * 1e10) / 1e10;

export function toStats({ totals, byModel, byProvider }: Awaited<ReturnType<typeof aggregateLogs>>, range: StatsRange) {
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

export type LogView = ReturnType<typeof toLogResponse>;
export type StatsView = ReturnType<typeof toStats>;
