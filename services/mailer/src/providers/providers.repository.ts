import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isUuid } from '@platform/tenancy';
import type { Tenant } from '../shared';

export type ProviderType = 'mailgun' | 'sendgrid';

export interface ProviderRow {
  id: string;
  name: string;
  type: ProviderType;
  isDefault: boolean;
  /** Failover order: lower first. */
  priority: number;
  configEnc: string;
  createdAt: Date;
}

const COLUMNS = [
  'id',
  'name',
  'type',
  'is_default as isDefault',
  'priority',
  'config_enc as configEnc',
  'created_at as createdAt',
];

const scoped = (db: Knex, tenant: Tenant) =>
  db('mail_providers').where({ tenant_id: tenant.tenantId, project_id: tenant.projectId });

/** Serialises default changes of one project until the transaction ends. */
export async function lockProjectProviders(trx: Knex.Transaction, tenant: Tenant): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`mail_providers:${tenant.projectId}`]);
}

export async function countProviders(db: Knex, tenant: Tenant): Promise<number> {
  const [{ count }] = await scoped(db, tenant).count<{ count: string }[]>({ count: '*' });
  return Number(count);
}

export async function clearDefault(db: Knex, tenant: Tenant): Promise<void> {
  await scoped(db, tenant).where({ is_default: true }).update({ is_default: false, updated_at: db.fn.now() });
}

export async function insertProvider(
  db: Knex,
  tenant: Tenant,
  fields: { name: string; type: ProviderType; configEnc: string; isDefault: boolean; priority: number },
): Promise<ProviderRow> {
  const [row] = await db('mail_providers')
    .insert({
      id: randomUUID(),
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
      name: fields.name,
      type: fields.type,
      config_enc: fields.configEnc,
      is_default: fields.isDefault,
      priority: fields.priority,
    })
    .returning(COLUMNS);
  return row;
}

export async function listProviders(db: Knex, tenant: Tenant): Promise<ProviderRow[]> {
  return scoped(db, tenant)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(COLUMNS);
}

export async function findProvider(db: Knex, tenant: Tenant, id: string): Promise<ProviderRow | undefined> {
  if (!isUuid(id)) return undefined;
  return scoped(db, tenant).where({ id }).first(COLUMNS);
}

/**
 * The project's providers in the order a send tries them: by priority, then the default, then the
 * oldest (with equal priorities the default goes first, as before failover existed).
 */
export async function listSendingProviders(db: Knex, tenant: Tenant): Promise<ProviderRow[]> {
  return scoped(db, tenant)
    .orderBy([
      { column: 'priority' },
      { column: 'is_default', order: 'desc' },
      { column: 'created_at' },
      { column: 'id' },
    ])
    .select(COLUMNS);
}

/**
 * Webhooks arrive without keys: the provider id in the path is what names the tenant, and the
 * vendor's signature (checked with that provider's key) is what proves the call.
 */
export async function findProviderForWebhook(db: Knex, id: string): Promise<(ProviderRow & Tenant) | undefined> {
  if (!isUuid(id)) return undefined;
  return db('mail_providers')
    .where({ id })
    .first([...COLUMNS, 'tenant_id as tenantId', 'project_id as projectId']);
}
