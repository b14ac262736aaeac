import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';

/** Operators are platform-wide (no tenant): known by their e-mail in the reserved project. */
export async function isOperator(db: Knex, email: string): Promise<boolean> {
  return (await sharedTable(db, 'operators').where({ email }).first('email')) !== undefined;
}

export async function insertOperator(db: Knex, email: string): Promise<boolean> {
  const rows = await sharedTable(db, 'operators').insert({ email }).onConflict('email').ignore().returning('email');
  return rows.length > 0;
}

/** Member counts of the given organisations (operators' listing). */
export async function memberCounts(db: Knex, tenantIds: string[]): Promise<Map<string, number>> {
  if (tenantIds.length === 0) return new Map();
  const rows = await sharedTable<{ tenant_id: string; count: string }>(db, 'members')
    .whereIn('tenant_id', tenantIds)
    .groupBy('tenant_id')
    .select('tenant_id')
    .count<{ tenant_id: string; count: string }[]>('* as count');
  return new Map(rows.map((r) => [r.tenant_id, Number(r.count)]));
}
