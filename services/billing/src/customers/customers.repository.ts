import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Environment } from '../shared/environment';
import type { EnvironmentTenant } from '../shared/environment-tenant';

/** Our record that a Stripe customer belongs to a project (and maybe to one of its users). */
export interface CustomerRow {
  environment: Environment;
  stripe_customer_id: string;
  user_id: string | null;
  created_at: Date;
}

export interface NewCustomer {
  stripeCustomerId: string;
  userId?: string;
}

const COLUMNS = ['environment', 'stripe_customer_id', 'user_id', 'created_at'] as const;

/** Records the customer; false when a record for it (or for that user) already existed. */
export async function insertCustomer(db: Knex, scope: EnvironmentTenant, values: NewCustomer): Promise<boolean> {
  const rows = await tenantTable(db, scope, 'customers')
    .insert({
      id: randomUUID(),
      ...tenantColumns(scope),
      environment: scope.environment,
      stripe_customer_id: values.stripeCustomerId,
      user_id: values.userId ?? null,
    })
    .onConflict()
    .ignore()
    .returning('id');
  return rows.length > 0;
}

export async function findCustomer(
  db: Knex,
  scope: EnvironmentTenant,
  stripeCustomerId: string,
): Promise<CustomerRow | undefined> {
  return tenantTable<CustomerRow>(db, scope, 'customers')
    .where({ environment: scope.environment, stripe_customer_id: stripeCustomerId })
    .first(...COLUMNS);
}

export async function findUserCustomer(
  db: Knex,
  scope: EnvironmentTenant,
  userId: string,
): Promise<CustomerRow | undefined> {
  return tenantTable<CustomerRow>(db, scope, 'customers')
    .where({ environment: scope.environment, user_id: userId })
    .first(...COLUMNS);
}

/** Newest first; one row more than asked, so the caller can tell whether more follow. */
export async function listCustomers(
  db: Knex,
  scope: EnvironmentTenant,
  page: { limit: number; offset: number },
): Promise<CustomerRow[]> {
  return tenantTable<CustomerRow>(db, scope, 'customers')
    .where({ environment: scope.environment })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit + 1)
    .offset(page.offset)
    .select(...COLUMNS);
}

export async function deleteCustomer(db: Knex, scope: EnvironmentTenant, stripeCustomerId: string): Promise<void> {
  await tenantTable(db, scope, 'customers')
    .where({ environment: scope.environment, stripe_customer_id: stripeCustomerId })
    .delete();
}
