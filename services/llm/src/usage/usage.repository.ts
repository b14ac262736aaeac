import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { Page } from '@platform/tenancy';
import type { ProviderType } from '../vendors/vendor-types';
import type { CompletionLogEntry, CompletionStatus, LogFilter, StatsRange } from './usage.types';

/** A row of `completion_logs` as the logs endpoint reads it (LOG_COLUMNS). */
export interface LogRow {
  id: string;
  model: string;
  provider: ProviderType;
  status: CompletionStatus;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  latency_ms: number;
  error: string | null;
  batch_id: string | null;
  created_at: Date;
  /** numeric: pg returns it as a string. */
  cost_usd: string | null;
  cached_tokens: number;
  cache_write_tokens: number;
  request_id: string | null;
  attempt: number | null;
  stream: boolean;
}

const LOG_COLUMNS: (keyof LogRow)[] = [
  'id',
  'model',
  'provider',
  'status',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'latency_ms',
  'error',
  'batch_id',
  'created_at',
  'cost_usd',
  'cached_tokens',
  'cache_write_tokens',
  'request_id',
  'attempt',
  'stream',
];

/** A log already stored under its id is left as it is: a retried insert writes each log once. */
export async function insertLogs(db: Knex, tenant: Tenant, entries: CompletionLogEntry[]): Promise<void> {
  if (!entries.length) return;
  await tenantTable(db, tenant, 'completion_logs')
    .insert(
      entries.map((e) => ({
        id: e.id,
        ...tenantColumns(tenant),
        model: e.model,
        provider: e.provider,
        status: e.status,
        prompt_tokens: e.usage.prompt_tokens,
        completion_tokens: e.usage.completion_tokens,
        total_tokens: e.usage.total_tokens,
        latency_ms: e.latencyMs,
        error: e.error,
        batch_id: e.batchId,
        created_at: e.createdAt,
        cost_usd: e.costUsd ?? null,
        cached_tokens: e.cachedTokens ?? 0,
        cache_write_tokens: e.cacheWriteTokens ?? 0,
        request_id: e.requestId ?? null,
        attempt: e.attempt ?? null,
        stream: e.stream ?? false,
      })),
    )
    .onConflict('id')
    .ignore();
}

export async function listLogs(
  db: Knex,
  tenant: Tenant,
  filter: LogFilter,
  page: Page,
): Promise<{ rows: LogRow[]; total: number }> {
  const scope = inRange(db, tenant, filter);
  if (filter.model) scope.where('model', filter.model);
  if (filter.status) scope.where('status', filter.status);
  // The total comes with the page from one snapshot, so a log written meanwhile cannot split them.
  const rows = (await scope
    .clone()
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset)
    .select([...LOG_COLUMNS, db.raw('count(*) over () as full_count')])) as (LogRow & { full_count: string })[];
  let total = rows.length ? Number(rows[0].full_count) : 0;
  // Past the last page: the total needs its own count.
  if (!rows.length && page.offset > 0)
    total = Number((await scope.clone().count<{ count: string }[]>({ count: '*' }))[0]?.count ?? 0);
  return { rows, total };
}

export interface TotalsRow {
  total_requests: string;
  successful_requests: string;
  failed_requests: string;
  prompt_tokens: string | null;
  completion_tokens: string | null;
  total_tokens: string | null;
  average_latency_ms: string | null;
  cost_usd: string | null;
  unpriced_requests: string;
}

/** One group of the stats: `key` is the model or the provider, as grouped by. */
export interface GroupRow {
  key: string;
  requests: string;
  total_tokens: string | null;
  cost_usd: string | null;
}

/** The three aggregates of the stats endpoint, read from one range of a project's logs. */
export interface LogStatsRows {
  totals: TotalsRow | undefined;
  byModel: GroupRow[];
  byProvider: GroupRow[];
}

function inRange(db: Knex, tenant: Tenant, range: StatsRange) {
  const query = tenantTable<LogRow>(db, tenant, 'completion_logs');
  if (range.from) query.where('created_at', '>=', range.from);
  if (range.to) query.where('created_at', '<=', range.to);
  return query;
}

/** One day (UTC) and model of a project's usage. */
export interface DailyRow {
  day: string;
  model: string;
  requests: string;
  failed_requests: string;
  prompt_tokens: string | null;
  completion_tokens: string | null;
  total_tokens: string | null;
  cost_usd: string | null;
}

/** The project's logs in [start, end) summed per UTC day and model, oldest day first. */
export async function aggregateDaily(db: Knex, tenant: Tenant, range: { start: Date; end: Date }): Promise<DailyRow[]> {
  return tenantTable<LogRow>(db, tenant, 'completion_logs')
    .where('created_at', '>=', range.start)
    .andWhere('created_at', '<', range.end)
    .groupByRaw('1, 2')
    .orderByRaw('1, 2')
    .select<
      DailyRow[]
    >(db.raw(`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day`), 'model', db.raw('count(*) as requests'), db.raw("count(*) filter (where status <> 'success') as failed_requests"), db.raw('sum(prompt_tokens) as prompt_tokens'), db.raw('sum(completion_tokens) as completion_tokens'), db.raw('sum(total_tokens) as total_tokens'), db.raw('sum(cost_usd) as cost_usd'));
}

export async function aggregateLogs(db: Knex, tenant: Tenant, range: StatsRange): Promise<LogStatsRows> {
  const [totals, byModel, byProvider] = await Promise.all([
    inRange(db, tenant, range).first<TotalsRow>(
      db.raw('count(*) as total_requests'),
      db.raw("count(*) filter (where status = 'success') as successful_requests"),
      db.raw("count(*) filter (where status <> 'success') as failed_requests"),
      db.raw('sum(prompt_tokens) as prompt_tokens'),
      db.raw('sum(completion_tokens) as completion_tokens'),
      db.raw('sum(total_tokens) as total_tokens'),
      db.raw('avg(latency_ms) as average_latency_ms'),
      db.raw('sum(cost_usd) as cost_usd'),
      db.raw("count(*) filter (where cost_usd is null and status = 'success') as unpriced_requests"),
    ),
    inRange(db, tenant, range)
      .groupBy('model')
      .orderBy('model')
      .select<
        GroupRow[]
      >('model as key', db.raw('count(*) as requests'), db.raw('sum(total_tokens) as total_tokens'), db.raw('sum(cost_usd) as cost_usd')),
    inRange(db, tenant, range)
      .groupBy('provider')
      .orderBy('provider')
      .select<
        GroupRow[]
      >('provider as key', db.raw('count(*) as requests'), db.raw('sum(total_tokens) as total_tokens'), db.raw('sum(cost_usd) as cost_usd')),
  ]);
  return { totals, byModel, byProvider };
}
