import type { Knex } from 'knex';
import { dayRangeOf, errors, type DayRangeQuery, type Page, type Tenant } from '@platform/tenancy';
import type { CompletionLogWriter } from './completion-log-writer';
import { toDailyUsage, toLog, toStats } from './usage.mapper';
import { aggregateDaily, aggregateLogs, insertLogs as insertLogRows, listLogs } from './usage.repository';
import { DAILY_DEFAULT_DAYS, DAILY_MAX_DAYS } from './usage.schemas';
import type { CompletionLogEntry, LogFilter, StatsRange } from './usage.types';

/** Logs and stats name their project in the path; it must be the caller's own. */
export function assertOwnProject(tenant: Tenant, path: { tenant_id: string; project_id: string }): void {
  if (path.tenant_id !== tenant.tenantId || path.project_id !== tenant.projectId) {
    throw errors.forbidden('The path names another tenant or project than the keys');
  }
}

/** Stores completion logs at once (the batch worker's, written with its results). */
export function insertLogs(db: Knex, tenant: Tenant, entries: CompletionLogEntry[]): Promise<void> {
  return insertLogRows(db, tenant, entries);
}

/** A page of the project's logs (narrowed by model, status and time when asked), with those this replica has not written yet. */
export async function getLogs(db: Knex, writer: CompletionLogWriter, tenant: Tenant, query: Page & LogFilter) {
  await writer.catchUp(tenant);
  const { rows, total } = await listLogs(db, tenant, query, query);
  return { logs: rows.map(toLog), total, limit: query.limit, offset: query.offset };
}

/** The project's stats, counting the logs this replica has not written yet. */
export async function getStats(db: Knex, writer: CompletionLogWriter, tenant: Tenant, range: StatsRange) {
  await writer.catchUp(tenant);
  return toStats(await aggregateLogs(db, tenant, range), range);
}

/** Usage per UTC day and model over whole days (the console's charts), counting this replica's unwritten logs. */
export async function getDailyUsage(db: Knex, writer: CompletionLogWriter, tenant: Tenant, query: DayRangeQuery) {
  const range = dayRangeOf(query, DAILY_DEFAULT_DAYS, DAILY_MAX_DAYS);
  await writer.catchUp(tenant);
  const rows = await aggregateDaily(db, tenant, range);
  return { from: range.from, to: range.to, days: rows.map(toDailyUsage) };
}
