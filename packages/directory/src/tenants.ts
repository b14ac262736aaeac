import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError, isUuid } from '@platform/tenancy';

/** A tenant as the control plane shows it: an organisation. */
export interface TenantRecord {
  id: string;
  name: string;
  createdAt: Date;
  suspendedAt: Date | null;
  suspensionReason: string | null;
}

interface TenantRow {
  id: string;
  name: string;
  display_name: string | null;
  created_at: Date;
  suspended_at: Date | null;
  suspension_reason: string | null;
}

const COLUMNS = ['id', 'name', 'display_name', 'created_at', 'suspended_at', 'suspension_reason'] as const;

const toTenant = (row: TenantRow): TenantRecord => ({
  id: row.id,
  name: row.display_name ?? row.name,
  createdAt: row.created_at,
  suspendedAt: row.suspended_at,
  suspensionReason: row.suspension_reason,
});

/**
 * A tenant made in the console. Its unique technical name is derived from its id so that two
 * organisations may carry the same display name without learning of each other.
 */
export async function createTenant(db: Knex, displayName: string): Promise<TenantRecord> {
  const id = randomUUID();
  const [row] = await db('tenants')
    .insert({ id, name: `org-${id}`, display_name: displayName })
    .returning<TenantRow[]>([...COLUMNS]);
  return toTenant(row);
}

export async function findTenant(db: Knex, tenantId: string): Promise<TenantRecord | undefined> {
  if (!isUuid(tenantId)) return undefined;
  const row = await db<TenantRow>('tenants')
    .where({ id: tenantId })
    .whereNull('deleted_at')
    .first(...COLUMNS);
  return row ? toTenant(row) : undefined;
}

export async function findTenants(db: Knex, tenantIds: string[]): Promise<TenantRecord[]> {
  if (tenantIds.length === 0) return [];
  const rows = await db<TenantRow>('tenants')
    .whereIn('id', tenantIds)
    .whereNull('deleted_at')
    .orderBy('created_at')
    .select(...COLUMNS);
  return rows.map(toTenant);
}

/** Every tenant, oldest first, a page at a time (operators). */
export async function listTenants(db: Knex, page: { limit: number; offset: number }): Promise<TenantRecord[]> {
  const rows = await db<TenantRow>('tenants')
    .whereNull('deleted_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(page.limit)
    .offset(page.offset)
    .select(...COLUMNS);
  return rows.map(toTenant);
}

export async function renameTenant(db: Knex, tenantId: string, displayName: string): Promise<TenantRecord> {
  const [row] = await db('tenants')
    .where({ id: tenantId })
    .update({ display_name: displayName })
    .returning<TenantRow[]>([...COLUMNS]);
  if (!row) throw new AppError('NOT_FOUND', 'Organisation not found');
  return toTenant(row);
}

/** Suspends (reason given) or lifts the suspension (null): keys stop or start working within the key cache TTL. */
export async function setTenantSuspension(db: Knex, tenantId: string, reason: string | null): Promise<TenantRecord> {
  const [row] = await db('tenants')
    .where({ id: tenantId })
    .update(
      reason === null
        ? { suspended_at: null, suspension_reason: null }
        : { suspended_at: db.fn.now(), suspension_reason: reason },
    )
    .returning<TenantRow[]>([...COLUMNS]);
  if (!row) throw new AppError('NOT_FOUND', 'Organisation not found');
  return toTenant(row);
}

/**
 * Deletes the organisation: in one transaction it is marked deleted, every live project of it is
 * marked deleted and every key of those projects revoked, so that no key of the organisation
 * passes a key check that asks the database from here on. Answers the deleted projects' ids
 * (whose data the caller has erased).
 */
export async function deleteTenant(db: Knex, tenantId: string): Promise<string[]> {
  if (!isUuid(tenantId)) throw new AppError('NOT_FOUND', 'Organisation not found');
  return db.transaction(async (trx) => {
    const tenant = await trx('tenants')
      .where({ id: tenantId })
      .whereNull('deleted_at')
      .update({ deleted_at: trx.fn.now() })
      .returning<{ id: string }[]>(['id']);
    if (tenant.length === 0) throw new AppError('NOT_FOUND', 'Organisation not found');
    const projects = await trx('projects')
      .where({ tenant_id: tenantId })
      .whereNull('deleted_at')
      .update({ deleted_at: trx.fn.now(), name: trx.raw(`name || ' (deleted ' || id || ')'`) })
      .returning<{ id: string }[]>(['id']);
    const projectIds = projects.map((p) => p.id);
    if (projectIds.length > 0)
      await trx('api_keys')
        .whereIn('project_id', projectIds)
        .whereNull('revoked_at')
        .update({ revoked_at: trx.fn.now() });
    return projectIds;
  });
}
