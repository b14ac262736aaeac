import type { Knex } from 'knex';

/** Who owns a row, a project of a tenant: the shape of @platform/tenancy's `Tenant` (this package sits below it). */
export interface Tenant {
  readonly tenantId: string;
  readonly projectId: string;
}

/** The owner as the columns every tenant table carries. */
export interface TenantColumns {
  tenant_id: string;
  project_id: string;
}

const TABLE_REF = /^\s*([A-Za-z_][\w.]*)(?:\s+as\s+([A-Za-z_]\w*))?\s*$/i;

/** The name a table's columns are qualified with: its alias when it has one. */
function qualifierOf(table: string): string {
  const match = TABLE_REF.exec(table);
  if (!match) throw new Error(`tenantTable: expected 'table' or 'table as alias', got '${table}'`);
  return match[2] ?? match[1];
}

/**
 * The only way to a tenant table: a query builder on `table` ('table' or 'table as alias')
 * already limited to the owner's rows, the columns qualified so that joins stay unambiguous.
 */
export function tenantTable<Row extends object = Record<string, unknown>>(
  db: Knex | Knex.Transaction,
  owner: Tenant,
  table: string,
) {
  const qualifier = qualifierOf(table);
  return db<Row>(table)
    .where(`${qualifier}.tenant_id`, owner.tenantId)
    .andWhere(`${qualifier}.project_id`, owner.projectId);
}

/** `{ tenant_id, project_id }` for the rows a tenant inserts. */
export function tenantColumns(owner: Tenant): TenantColumns {
  return { tenant_id: owner.tenantId, project_id: owner.projectId };
}

/** The owner of a row read from a tenant table (or a table shared by all of them). */
export function tenantOfRow(row: TenantColumns): Tenant {
  return { tenantId: row.tenant_id, projectId: row.project_id };
}

/** `{ tenantId, projectId }` as named bindings, for the raw SQL of hot paths (`... = :tenantId`). */
export function tenantBindings(owner: Tenant): { tenantId: string; projectId: string } {
  return { tenantId: owner.tenantId, projectId: owner.projectId };
}

/** One string per project, for in-memory maps keyed by owner (meters, slots, feeds). */
export function tenantKey(owner: Tenant): string {
  return `${owner.tenantId}/${owner.projectId}`;
}

/**
 * A table that is deliberately not scoped to one tenant (outbox, processed events, job claims,
 * global feeds, sweeps over all projects): the name says so in review.
 */
export function sharedTable<Row extends object = Record<string, unknown>>(db: Knex | Knex.Transaction, table: string) {
  return db<Row>(table);
}
