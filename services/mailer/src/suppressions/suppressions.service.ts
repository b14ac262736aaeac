import type { Knex } from 'knex';
import { errors, toIso } from '@platform/tenancy';
import type { Tenant } from '../shared';
import * as repo from './suppressions.repository';
import type { AddSuppressionInput } from './suppressions.schemas';

export interface Suppression {
  email: string;
  scope: repo.SuppressionScope;
  reason: repo.SuppressionReason;
  providerEvent: string | null;
  providerId: string | null;
  createdAt: string;
}

/** The one place a suppression row becomes its API shape. */
function toSuppression(row: repo.SuppressionRow): Suppression {
  return { ...row, createdAt: toIso(row.createdAt)! };
}

export class SuppressionsService {
  constructor(private readonly db: Knex) {}

  async add(tenant: Tenant, input: AddSuppressionInput): Promise<Suppression> {
    await repo.upsertSuppressions(this.db, tenant, [
      { email: input.email, scope: input.scope, reason: input.reason, providerEvent: null, providerId: null },
    ]);
    return toSuppression((await repo.findSuppression(this.db, tenant, input.email))!);
  }

  async list(tenant: Tenant, query: { limit: number; offset: number; reason?: repo.SuppressionReason }) {
    const { rows, total } = await repo.listSuppressions(this.db, tenant, query);
    return { suppressions: rows.map(toSuppression), total, limit: query.limit, offset: query.offset };
  }

  async remove(tenant: Tenant, email: string): Promise<void> {
    if (!(await repo.deleteSuppression(this.db, tenant, email))) throw errors.notFound('Suppression');
  }

  /** Which of `emails` must not get mail of this category, by lowercased address. */
  async blocking(
    db: Knex,
    tenant: Tenant,
    emails: string[],
    category: 'transactional' | 'marketing',
  ): Promise<Map<string, repo.SuppressionRow>> {
    const rows = await repo.suppressionsFor(db, tenant, [...new Set(emails.map((e) => e.toLowerCase()))], category);
    return new Map(rows.map((row) => [row.email, row]));
  }
}
