import type { Knex } from 'knex';
import type { Tenant } from '../shared';

export type SuppressionReason = 'bounce' | 'complaint' | 'unsubscribe' | 'manual';
export const SUPPRESSION_REASONS: SuppressionReason[] = ['bounce', 'complaint', 'unsubscribe', 'manual'];
/** `all`: no mail at all; `marketing`: only mail sent with category marketing is held back. */
export type SuppressionScope = 'all' | 'marketing';

export interface SuppressionRow {
  email: string;
  scope: SuppressionScope;
  reason: SuppressionReason;
  providerEvent: string | null;
  providerId: string | null;
  createdAt: Date;
}

export type NewSuppression = Omit<SuppressionRow, 'createdAt'>;

const TABLE = 'mail_suppressions';
const COLUMNS = [
  'email',
  'scope',
  'reason',
  'provider_event as providerEvent',
  'provider_id as providerId',
  'created_at as createdAt',
];

const scoped = (db: Knex, tenant: Tenant) =>
  db(TABLE).where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

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
  await db(TABLE)
    .insert(
      [...byEmail.values()].map((e) => ({
        tenant_id: tenant.tenantId,
        project_id: tenant.projectId,
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
  const filtered = () => (page.reason ? scoped(db, tenant).where({ reason: page.reason }) : scoped(db, tenant));
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'email', order: 'asc' },
      ])
      .limit(page.limit)
      .offset(page.offset)
      .select(COLUMNS),
    filtered().count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export async function findSuppression(db: Knex, tenant: Tenant, email: string): Promise<SuppressionRow | undefined> {
  return scoped(db, tenant).where({ email }).first(COLUMNS);
}

/** The suppressions among `emails` (lowercased) that hold back mail of this category. */
export async function suppressionsFor(
  db: Knex,
  tenant: Tenant,
  emails: string[],
  category: 'transactional' | 'marketing',
): Promise<SuppressionRow[]> {
  if (!emails.length) return [];
  const q = scoped(db, tenant).whereIn('email', emails);
  if (category === 'transactional') q.where({ scope: 'all' });
  return q.select(COLUMNS);
}

export async function deleteSuppression(db: Knex, tenant: Tenant, email: string): Promise<boolean> {
  return (await scoped(db, tenant).where({ email }).delete()) > 0;
}
