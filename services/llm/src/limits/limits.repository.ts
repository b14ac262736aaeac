import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';

export interface LimitSettings {
  monthlyBudgetUsd: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
}

/**
 * A project's row as of now: its limits, its default fallbacks, and meters of a past month or
 * minute read as 0. Numerics and bigints arrive as strings; the dates are the database's clock,
 * which every replica shares.
 */
export interface ProjectLimitsRow {
  monthly_budget_usd: string | null;
  requests_per_minute: number | null;
  tokens_per_minute: string | null;
  fallbacks: string[];
  month: Date;
  window_start: Date;
  now: Date;
  spent_usd: string;
  reserved_usd: string;
  window_requests: number | string;
  window_tokens: string;
}

// Meters roll over by the database's clock: a new month starts spend at 0, a new minute the window.
const THIS_MONTH = "month = date_trunc('month', now())";
const THIS_MINUTE = "window_start = date_trunc('minute', now())";

/**
 * What one admission round trip added: requests admitted and the worst-case cost they reserved,
 * with the lease it drew and less what the lease it replaced gave back.
 */
export interface Admission {
  requests: number;
  reservedUsd: number;
}

/**
 * Admits a group of requests of one project in one transaction: the project's row is locked (so
 * concurrent groups, from any replica, are ordered and each sees the reservations of those before
 * it), `decide` says how many of the group fit and what they reserve, and that is added.
 */
export async function admitGroup<T>(
  db: Knex,
  tenant: Tenant,
  decide: (row: ProjectLimitsRow) => { admission: Admission; result: T },
): Promise<T> {
  return db.transaction(async (trx) => {
    let row = await selectRow(trx, tenant, true);
    if (!row) {
      await tenantTable(trx, tenant, 'project_limits')
        .insert({
          ...tenantColumns(tenant),
          month: trx.raw("date_trunc('month', now())"),
          window_start: trx.raw("date_trunc('minute', now())"),
        })
        .onConflict(['tenant_id', 'project_id'])
        .ignore();
      row = (await selectRow(trx, tenant, true))!;
    }
    const { admission, result } = decide(row);
    // A lease given back in the same transaction makes either change negative.
    if (admission.requests !== 0 || admission.reservedUsd !== 0) {
      await trx.raw(
        `update project_limits set
           spent_usd = case when ${THIS_MONTH} then spent_usd else 0 end,
           reserved_usd = greatest(0, case when ${THIS_MONTH} then reserved_usd else 0 end + ?),
           month = date_trunc('month', now()),
           window_requests = greatest(0, case when ${THIS_MINUTE} then window_requests else 0 end + ?),
           window_tokens = case when ${THIS_MINUTE} then window_tokens else 0 end,
           window_start = date_trunc('minute', now())
         where tenant_id = ? and project_id = ?`,
        [admission.reservedUsd, admission.requests, tenant.tenantId, tenant.projectId],
      );
    }
    return result;
  });
}

export interface Settlement {
  spentUsd: number;
  releasedUsd: number;
  tokens: number;
  /** Request slots a lease gives back to its minute (negative: requests it admitted without reserving slots). */
  window?: { start: number; returnedRequests: number };
}

/** Turns reservations into spend, adds the tokens used to the minute's window, gives back a lease's slots. */
export async function settle(db: Knex, tenant: Tenant, settlement: Settlement): Promise<void> {
  const { window } = settlement;
  await tenantTable(db, tenant, 'project_limits').update({
    spent_usd: db.raw('spent_usd + ?', [settlement.spentUsd]),
    reserved_usd: db.raw('greatest(0, reserved_usd - ?)', [settlement.releasedUsd]),
    window_tokens: db.raw('window_tokens + ?', [settlement.tokens]),
    // Only into the minute they were taken from: a later minute started from 0 without them.
    ...(window?.returnedRequests && {
      window_requests: db.raw(
        'case when window_start = ? then greatest(0, window_requests - ?) else window_requests end',
        [new Date(window.start), window.returnedRequests],
      ),
    }),
  });
}

async function selectRow(db: Knex, tenant: Tenant, forUpdate: boolean): Promise<ProjectLimitsRow | undefined> {
  const { rows } = await db.raw<{ rows: ProjectLimitsRow[] }>(
    `select monthly_budget_usd, requests_per_minute, tokens_per_minute, fallbacks,
            date_trunc('month', now()) as month, date_trunc('minute', now()) as window_start, now() as now,
            case when ${THIS_MONTH} then spent_usd else 0 end as spent_usd,
            case when ${THIS_MONTH} then reserved_usd else 0 end as reserved_usd,
            case when ${THIS_MINUTE} then window_requests else 0 end as window_requests,
            case when ${THIS_MINUTE} then window_tokens else 0 end as window_tokens
       from project_limits where tenant_id = ? and project_id = ?${forUpdate ? ' for update' : ''}`,
    [tenant.tenantId, tenant.projectId],
  );
  return rows[0];
}

/** The project's limits and meters as of now (meters of a past month or minute read as 0). */
export function readLimits(db: Knex, tenant: Tenant): Promise<ProjectLimitsRow | undefined> {
  return selectRow(db, tenant, false);
}

function upsertRow(db: Knex, tenant: Tenant, values: Record<string, unknown>) {
  return tenantTable(db, tenant, 'project_limits')
    .insert({
      ...tenantColumns(tenant),
      month: db.raw("date_trunc('month', now())"),
      window_start: db.raw("date_trunc('minute', now())"),
      ...values,
    })
    .onConflict(['tenant_id', 'project_id'])
    .merge(Object.keys(values));
}

export async function writeLimits(db: Knex, tenant: Tenant, limits: LimitSettings): Promise<void> {
  await upsertRow(db, tenant, {
    monthly_budget_usd: limits.monthlyBudgetUsd,
    requests_per_minute: limits.requestsPerMinute,
    tokens_per_minute: limits.tokensPerMinute,
  });
}

export async function readFallbacks(db: Knex, tenant: Tenant): Promise<string[]> {
  const row = await tenantTable(db, tenant, 'project_limits').first<{ fallbacks: string[] } | undefined>('fallbacks');
  return row?.fallbacks ?? [];
}

export async function writeFallbacks(db: Knex, tenant: Tenant, fallbacks: string[]): Promise<void> {
  await upsertRow(db, tenant, { fallbacks: JSON.stringify(fallbacks) });
}
