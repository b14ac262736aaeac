import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, sharedTable, tenantTable, type TenantColumns } from '@platform/db';
import { isUuid } from '@platform/tenancy';
import type { Tenant } from '@platform/tenancy';

export type ProviderType = 'mailgun' | 'sendgrid';

/** A row as stored: snake_case, read with an explicit column list. */
export interface ProviderRow {
  id: string;
  name: string;
  type: ProviderType;
  is_default: boolean;
  /** Failover order: lower first. */
  priority: number;
  /** The whole vendor config, sealed with the master key. */
  config_enc: string;
  created_at: Date;
}

const TABLE = 'mail_providers';
const COLUMNS = ['id', 'name', 'type', 'is_default', 'priority', 'config_enc', 'created_at'] as const;

/** Serialises default changes of one project until the transaction ends. */
export async function lockProjectProviders(trx: Knex.Transaction, tenant: Tenant): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`mail_providers:${tenant.projectId}`]);
}

export async function countProviders(db: Knex, tenant: Tenant): Promise<number> {
  const [{ count }] = await tenantTable<ProviderRow>(db, tenant, TABLE).count<{ count: string }[]>({ count: '*' });
  return Number(count);
}

export async function clearDefault(db: Knex, tenant: Tenant): Promise<void> {
  await tenantTable(db, tenant, TABLE)
    .where({ is_default: true })
    .update({ is_default: false, updated_at: db.fn.now() });
}

export async function insertProvider(
  db: Knex,
  tenant: Tenant,
  fields: { name: string; type: ProviderType; configEnc: string; isDefault: boolean; priority: number },
): Promise<ProviderRow> {
  const [row] = await tenantTable<ProviderRow>(db, tenant, TABLE)
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      name: fields.name,
      type: fields.type,
      config_enc: fields.configEnc,
      is_default: fields.isDefault,
      priority: fields.priority,
    })
    .returning<ProviderRow[]>([...COLUMNS]);
  return row;
}

export async function updateProvider(
  db: Knex,
  tenant: Tenant,
  id: string,
  fields: { name?: string; isDefault?: boolean; priority?: number },
): Promise<ProviderRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await tenantTable(db, tenant, TABLE)
    .where({ id })
    .update({
      ...(fields.name !== undefined ? { name: fields.name } : {}),
      ...(fields.isDefault !== undefined ? { is_default: fields.isDefault } : {}),
      ...(fields.priority !== undefined ? { priority: fields.priority } : {}),
      updated_at: db.fn.now(),
    })
    .returning<ProviderRow[]>([...COLUMNS]);
  return row;
}

export async function listProviders(db: Knex, tenant: Tenant): Promise<ProviderRow[]> {
  return tenantTable<ProviderRow>(db, tenant, TABLE)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select<ProviderRow[]>(COLUMNS);
}

export async function findProvider(db: Knex, tenant: Tenant, id: string): Promise<ProviderRow | undefined> {
  if (!isUuid(id)) return undefined;
  return tenantTable<ProviderRow>(db, tenant, TABLE)
    .where({ id })
    .first(...COLUMNS);
}

/**
 * The project's providers in the order a send tries them: by priority, then the default, then the
 * oldest (with equal priorities the default goes first, as before failover existed).
 */
export async function listSendingProviders(db: Knex, tenant: Tenant): Promise<ProviderRow[]> {
  return tenantTable<ProviderRow>(db, tenant, TABLE)
    .orderBy([
      { column: 'priority' },
      { column: 'is_default', order: 'desc' },
      { column: 'created_at' },
      { column: 'id' },
    ])
    .select<ProviderRow[]>(COLUMNS);
}

/**
 * Webhooks arrive without keys: the provider id in the path is what names the tenant, and the
 * vendor's signature (checked with that provider's key) is what proves the call.
 */
export async function findProviderForWebhook(db: Knex, id: string): Promise<(ProviderRow & TenantColumns) | undefined> {
  if (!isUuid(id)) return undefined;
  // Deliberately unscoped: this lookup is what finds the owner.
  return sharedTable<ProviderRow & TenantColumns>(db, TABLE)
    .where({ id })
    .first(...COLUMNS, 'tenant_id', 'project_id');
}
