import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { NewSuppression, SuppressionReason, SuppressionScope } from './suppressions.model';

/** A row as stored: snake_case, read with an explicit column list. */
export interface SuppressionRow {
  email: string;
  scope: SuppressionScope;
  reason: SuppressionReason;
  provider_event: string | null;
  provider_id: string | null;
  created_at: Date;
}

const TABLE = 'mail_suppressions';
const COLUMNS = ['email', 'scope', 'reason', 'provider_event', 'provider_id', 'created_at'] as const;

/**
 * Adds or widens suppressions (emails already lowercased). An existing `all` entry stays as it
 * is; a `marketing` one becomes `all` when an `all` reason arrives.
 */
export async function upsertSuppressions(db: Knex, tenant: Tenant, entries: NewSuppression[]): Promise<void> {
  if (!entries.length) return;
  // One row per address in a statement: Postgres refuses to update the same row twice.
  const byEmail = new Map<string, NewSuppression>();
  for (const entry of entries) {
    const seen = byEmail.get(entry.email);
    if (!seen || (seen.scope === 'marketing' && entry.scope === 'all')) byEmail.set(entry.email, entry);
  }
  await tenantTable<SuppressionRow>(db, tenant, TABLE)
    .insert(
      [...byEmail.values()].map((e) => ({
        ...tenantColumns(tenant),
        email: e.email,
        scope: e.scope,
        reason: e.reason,
        provider_event: e.providerEvent,
        provider_id: e.providerId,
      })),
    )
    .onConflict(['project_id', 'email'])
    .merge(['scope', 'reason', 'provider_event', 'provider_id', 'created_at'])
    .where(`${TABLE}.scope`, 'marketing')
    .andWhere(db.raw('excluded.scope = ?', ['all']));
}

export async function listSuppressions(
  db: Knex,
  tenant: Tenant,
  page: { limit: number; offset: number; reason?: SuppressionReason },
): Promise<{ rows: SuppressionRow[]; total: number }> {
  const filtered = () => {
    const q = tenantTable<SuppressionRow>(db, tenant, TABLE);
    return page.reason ? q.where({ reason: page.reason }) : q;
  };
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'email', order: 'asc' },
      ])
      .limit(page.limit)
      .offset(page.offset)
      .select<SuppressionRow[]>(COLUMNS),
    filtered().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export async function findSuppression(db: Knex, tenant: Tenant, email: string): Promise<SuppressionRow | undefined> {
  return tenantTable<SuppressionRow>(db, tenant, TABLE)
    .where({ email })
    .first(...COLUMNS);
}

/** The suppressions among `emails` (lowercased) that hold back mail of this category. */
export async function suppressionsFor(
  db: Knex,
  tenant: Tenant,
  emails: string[],
  category: 'transactional' | 'marketing',
): Promise<SuppressionRow[]> {
  if (!emails.length) return [];
  const q = tenantTable<SuppressionRow>(db, tenant, TABLE).whereIn('email', emails);
  if (category === 'transactional') q.where({ scope: 'all' });
  return q.select<SuppressionRow[]>(COLUMNS);
}

export async function deleteSuppression(db: Knex, tenant: Tenant, email: string): Promise<boolean> {
  return (await tenantTable<SuppressionRow>(db, tenant, TABLE).where({ email }).delete()) > 0;
}
