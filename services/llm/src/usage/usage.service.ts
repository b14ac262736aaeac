import type { Knex } from 'knex';
import { errors, type Page, type Tenant } from '@platform/tenancy';
import type { CompletionLogWriter } from './completion-log-writer';
import { toDailyUsage, toLog, toStats } from './usage.mapper';
import { aggregateDaily, aggregateLogs, insertLogs as insertLogRows, listLogs } from './usage.repository';
import { DAILY_MAX_DAYS, type DailyRange } from './usage.schemas';
import type { CompletionLogEntry, StatsRange } from './usage.types';

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

/** The project's logs, with those this replica has not written yet. */
export async function getLogs(db: Knex, writer: CompletionLogWriter, tenant: Tenant, page: Page) {
  await writer.catchUp(tenant);
  const { rows, total } = await listLogs(db, tenant, page);
  return { logs: rows.map(toLog), total, limit: page.limit, offset: page.offset };
}

/** The project's stats, counting the logs this replica has not written yet. */
export async function getStats(db: Knex, writer: CompletionLogWriter, tenant: Tenant, range: StatsRange) {
  await writer.catchUp(tenant);
  return toStats(await aggregateLogs(db, tenant, range), range);
}

const DAY_MS = 86_400_000;

function utcDay(text: string | undefined, fallback: Date, field: string): Date {
  if (text === undefined) return new Date(Math.floor(fallback.getTime() / DAY_MS) * DAY_MS);
  const day = new Date(`${text}T00:00:00.000Z`);
  // 2026-02-30 parses as a March day: only a real calendar day round-trips.
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) {
    throw errors.validation(`${field} is not a calendar day`, [
      { path: field, message: `${field} must be a real YYYY-MM-DD day` },
    ]);
  }
  return day;
}

/** Usage per UTC day and model over whole days (the console's charts), counting this replica's unwritten logs. */
export async function getDailyUsage(db: Knex, writer: CompletionLogWriter, tenant: Tenant, query: Partial<DailyRange>) {
  const to = utcDay(query.to, new Date(), 'to');
  const from = utcDay(query.from, new Date(to.getTime() - 29 * DAY_MS), 'from');
  const days = (to.getTime() - from.getTime()) / DAY_MS + 1;
  if (days < 1)
    throw errors.validation('from must not be after to', [{ path: 'from', message: 'from must not be after to' }]);
  if (days > DAILY_MAX_DAYS) {
    throw errors.validation(`At most ${DAILY_MAX_DAYS} days at once`, [
      { path: 'from', message: `the range must span at most ${DAILY_MAX_DAYS} days` },
    ]);
  }
  await writer.catchUp(tenant);
  const rows = await aggregateDaily(db, tenant, { from, to: new Date(to.getTime() + DAY_MS) });
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10), days: rows.map(toDailyUsage) };
}
