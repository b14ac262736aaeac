import type { Knex } from 'knex';
import { dayRangeOf, type DayRangeQuery } from '@platform/tenancy';
import type { Tenant } from '@platform/tenancy';
import { EMAIL_STATUSES, type EmailStatus } from './emails.model';
import { toLog } from './logs.mapper';
import * as repo from './logs.repository';

export async function listLogs(
  db: Knex,
  tenant: Tenant,
  query: { limit: number; offset: number; status?: EmailStatus },
) {
  const { rows, total } = await repo.listLogs(db, tenant, query);
  return { logs: rows.map(toLog), total, limit: query.limit, offset: query.offset };
}

export async function recipientLogs(db: Knex, tenant: Tenant, email: string, page: { limit: number; offset: number }) {
  const rows = await repo.listLogsForRecipient(db, tenant, email, page);
  return { logs: rows.map(toLog), limit: page.limit, offset: page.offset };
}

export async function logStats(db: Knex, tenant: Tenant) {
  const counts = await repo.countByStatus(db, tenant);
  const byStatus = Object.fromEntries(EMAIL_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<EmailStatus, number>;
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { total, ...byStatus };
}

export const DAILY_STATS_DEFAULT_DAYS = 30;
export const DAILY_STATS_MAX_DAYS = 366;

/** The statistics per UTC day the emails were sent (by their current status); days without emails are left out. */
export async function dailyStats(db: Knex, tenant: Tenant, query: DayRangeQuery) {
  const range = dayRangeOf(query, DAILY_STATS_DEFAULT_DAYS, DAILY_STATS_MAX_DAYS);
  const days = new Map<string, Record<EmailStatus | 'total', number>>();
  for (const row of await repo.countByDayAndStatus(db, tenant, range)) {
    let day = days.get(row.day);
    if (!day) {
      day = { total: 0, ...(Object.fromEntries(EMAIL_STATUSES.map((s) => [s, 0])) as Record<EmailStatus, number>) };
      days.set(row.day, day);
    }
    if ((EMAIL_STATUSES as string[]).includes(row.status)) day[row.status as EmailStatus] += Number(row.count);
    day.total += Number(row.count);
  }
  return { from: range.from, to: range.to, days: [...days].map(([day, counts]) => ({ day, ...counts })) };
}

/**
 * A vendor's report moves the provider's logs of those vendor message ids to `status`, but only
 * from the states it may follow (a late "delivered" does not undo a bounce); returns how many.
 */
export async function applyVendorStatus(
  db: Knex,
  tenant: Tenant,
  providerId: string,
  change: { vendorIds: string[]; status: EmailStatus; from: EmailStatus[] },
): Promise<number> {
  return repo.updateStatusByVendorId(db, tenant, providerId, change.vendorIds, change.status, change.from);
}
