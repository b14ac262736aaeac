import type { Knex } from 'knex';
import { errors } from '@platform/tenancy';
import type { Tenant } from '@platform/tenancy';
import { toSuppression, type Suppression } from './suppressions.mapper';
import type { NewSuppression, SuppressionReason } from './suppressions.model';
import * as repo from './suppressions.repository';

export async function addSuppression(
  db: Knex,
  tenant: Tenant,
  input: Pick<NewSuppression, 'email' | 'scope' | 'reason'>,
): Promise<Suppression> {
  await repo.upsertSuppressions(db, tenant, [{ ...input, providerEvent: null, providerId: null }]);
  return toSuppression((await repo.findSuppression(db, tenant, input.email))!);
}

export async function listSuppressions(
  db: Knex,
  tenant: Tenant,
  query: { limit: number; offset: number; reason?: SuppressionReason },
) {
  const { rows, total } = await repo.listSuppressions(db, tenant, query);
  return { suppressions: rows.map(toSuppression), total, limit: query.limit, offset: query.offset };
}

export async function removeSuppression(db: Knex, tenant: Tenant, email: string): Promise<void> {
  if (!(await repo.deleteSuppression(db, tenant, email))) throw errors.notFound('Suppression');
}

/** Adds or widens entries (vendor webhooks, one-click unsubscribe), in the caller's transaction. */
export async function suppress(db: Knex, tenant: Tenant, entries: NewSuppression[]): Promise<void> {
  await repo.upsertSuppressions(db, tenant, entries);
}

/** Which of `emails` must not get mail of this category, by lowercased address. */
export async function blockingSuppressions(
  db: Knex,
  tenant: Tenant,
  emails: string[],
  category: 'transactional' | 'marketing',
): Promise<Map<string, Suppression>> {
  const rows = await repo.suppressionsFor(db, tenant, [...new Set(emails.map((e) => e.toLowerCase()))], category);
  return new Map(rows.map((row) => [row.email, toSuppression(row)]));
}
