import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { scopeColumns, type Scope } from '../shared/scope';

/** Our record that a Stripe customer belongs to a project (and maybe to one of its users). */
export interface CustomerRecord {
  stripeCustomerId: string;
  userId: string | null;
  createdAt: Date;
}

const COLUMNS = ['stripe_customer_id', 'user_id', 'created_at'];

const toRecord = (r: Record<string, unknown>): CustomerRecord => ({
  stripeCustomerId: r.stripe_customer_id as string,
  userId: (r.user_id as string | null) ?? null,
  createdAt: r.created_at as Date,
});

/** Records the customer; false when a record for it (or for that user) already existed. */
export async function insertCustomer(
  db: Knex,
  scope: Scope,
  values: { stripeCustomerId: string; userId?: string },
): Promise<boolean> {
  const rows = await db('customers')
    .insert({
      id: randomUUID(),
      ...scopeColumns(scope),
      stripe_customer_id: values.stripeCustomerId,
      user_id: values.userId ?? null,
    })
    .onConflict()
    .ignore()
    .returning('id');
  return rows.length > 0;
}

export async function findCustomer(db: Knex, scope: Scope, stripeCustomerId: string): Promise<CustomerRecord | null> {
  const row = await db('customers')
    .where({ ...scopeColumns(scope), stripe_customer_id: stripeCustomerId })
    .first(COLUMNS);
  return row ? toRecord(row) : null;
}

export async function findUserCustomer(db: Knex, scope: Scope, userId: string): Promise<CustomerRecord | null> {
  const row = await db('customers')
    .where({ ...scopeColumns(scope), user_id: userId })
    .first(COLUMNS);
  return row ? toRecord(row) : null;
}

/** Newest first; one row more than asked, so the caller can tell whether more follow. */
export async function listCustomerRecords(
  db: Knex,
  scope: Scope,
  page: { limit: number; offset: number },
): Promise<CustomerRecord[]> {
  const rows = await db('customers')
    .where(scopeColumns(scope))
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit + 1)
    .offset(page.offset)
    .select(COLUMNS);
  return rows.map(toRecord);
}

export async function deleteCustomerRecord(db: Knex, scope: Scope, stripeCustomerId: string): Promise<void> {
  await db('customers')
    .where({ ...scopeColumns(scope), stripe_customer_id: stripeCustomerId })
    .delete();
}
