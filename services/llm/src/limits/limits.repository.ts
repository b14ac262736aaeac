import type { Knex } from 'knex';
import type { Tenant } from '@platform/tenancy';

export interface LimitSettings {
  monthlyBudgetUsd: number | null;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
}

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

// Meters roll over by the database's clock: a new month starts spend at 0, a new minute the window.
const CURRENT = "date_trunc('month', now()), date_trunc('minute', now())";
const SAME_MONTH = 'l.month = excluded.month';
const SAME_MINUTE = 'l.window_start = excluded.window_start';

/**
 * Admits one request and reserves its most expensive outcome, in one statement: the row lock
 * orders concurrent requests of a project across replicas, and each sees the reservations of
 * those before it. Returns the project's default fallbacks, or undefined when a limit is reached
 * (the row is then left as it was).
 */
export async function admitRequest(db: Knex, tenant: Tenant, reserveUsd: number): Promise<string[] | undefined> {
  const { rows } = await db.raw<{ rows: { fallbacks: string[] }[] }>(
    `insert into project_limits as l (tenant_id, project_id, month, window_start, reserved_usd, window_requests)
     values (?, ?, ${CURRENT}, ?, 1)
     on conflict (tenant_id, project_id) do update set
       spent_usd = case when ${SAME_MONTH} then l.spent_usd else 0 end,
       reserved_usd = case when ${SAME_MONTH} then l.reserved_usd else 0 end + excluded.reserved_usd,
       month = excluded.month,
       window_requests = case when ${SAME_MINUTE} then l.window_requests else 0 end + 1,
       window_tokens = case when ${SAME_MINUTE} then l.window_tokens else 0 end,
       window_start = excluded.window_start
     where (l.monthly_budget_usd is null
            or case when ${SAME_MONTH} then l.spent_usd + l.reserved_usd else 0 end < l.monthly_budget_usd)
       and (l.requests_per_minute is null
            or case when ${SAME_MINUTE} then l.window_requests else 0 end < l.requests_per_minute)
       and (l.tokens_per_minute is null
            or case when ${SAME_MINUTE} then l.window_tokens else 0 end < l.tokens_per_minute)
     returning l.fallbacks`,
    [tenant.tenantId, tenant.projectId, reserveUsd],
  );
  return rows[0]?.fallbacks;
}

export interface Settlement {
  spentUsd: number;
  releasedUsd: number;
  tokens: number;
}

/** Turns reservations into spend and adds the tokens used to the minute's window. */
export async function settle(db: Knex, tenant: Tenant, settlement: Settlement): Promise<void> {
  await db('project_limits')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId })
    .update({
      spent_usd: db.raw('spent_usd + ?', [settlement.spentUsd]),
      reserved_usd: db.raw('greatest(0, reserved_usd - ?)', [settlement.releasedUsd]),
      window_tokens: db.raw('window_tokens + ?', [settlement.tokens]),
    });
}

const num = (value: string | number | null) => (value === null ? null : Number(value));

/** The project's limits and meters as of now (meters of a past month or minute read as 0). */
export async function readLimits(db: Knex, tenant: Tenant): Promise<LimitState | undefined> {
  const { rows } = await db.raw<{ rows: Record<string, string | number | null | Date>[] }>(
    `select monthly_budget_usd, requests_per_minute, tokens_per_minute,
            date_trunc('month', now()) as month, date_trunc('minute', now()) as window_start, now() as now,
            case when month = date_trunc('month', now()) then spent_usd else 0 end as spent_usd,
            case when month = date_trunc('month', now()) then reserved_usd else 0 end as reserved_usd,
            case when window_start = date_trunc('minute', now()) then window_requests else 0 end as window_requests,
            case when window_start = date_trunc('minute', now()) then window_tokens else 0 end as window_tokens
       from project_limits where tenant_id = ? and project_id = ?`,
    [tenant.tenantId, tenant.projectId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    monthlyBudgetUsd: num(row.monthly_budget_usd as string | null),
    requestsPerMinute: num(row.requests_per_minute as number | null),
    tokensPerMinute: num(row.tokens_per_minute as string | null),
    month: row.month as Date,
    spentUsd: Number(row.spent_usd),
    reservedUsd: Number(row.reserved_usd),
    windowStart: row.window_start as Date,
    windowRequests: Number(row.window_requests),
    windowTokens: Number(row.window_tokens),
    now: row.now as Date,
  };
}

function upsertRow(db: Knex, tenant: Tenant, values: Record<string, unknown>) {
  return db('project_limits')
    .insert({
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
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
  const row = await db('project_limits')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId })
    .first<{ fallbacks: string[] } | undefined>('fallbacks');
  return row?.fallbacks ?? [];
}

export async function writeFallbacks(db: Knex, tenant: Tenant, fallbacks: string[]): Promise<void> {
  await upsertRow(db, tenant, { fallbacks: JSON.stringify(fallbacks) });
}
