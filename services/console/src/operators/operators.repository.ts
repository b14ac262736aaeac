import type { Knex } from 'knex';
import { sharedTable } from '@platform/db';

export interface OperatorRow {
  email: string;
  user_id: string | null;
}

/** Operators are platform-wide (no tenant): named by an e-mail, bound to one user of the reserved project. */
export async function findOperator(db: Knex, email: string): Promise<OperatorRow | undefined> {
  return sharedTable<OperatorRow>(db, 'operators').where({ email }).first('email', 'user_id');
}

export async function insertOperator(db: Knex, email: string, userId: string | null): Promise<boolean> {
  const rows = await sharedTable(db, 'operators')
    .insert({ email, user_id: userId })
    .onConflict('email')
    .ignore()
    .returning('email');
  return rows.length > 0;
}

/** Binds the operator to its user, once: a bound operator stays bound. */
export async function bindOperatorUser(db: Knex, email: string, userId: string): Promise<void> {
  await sharedTable(db, 'operators').where({ email }).whereNull('user_id').update({ user_id: userId });
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
