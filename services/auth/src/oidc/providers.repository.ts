import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable, type Tenant } from '@platform/db';

export interface OidcProviderRow {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  /** Sealed with the platform's SecretBox; never returned. */
  client_secret_sealed: string | null;
  scopes: string[];
  accept_unverified_emails: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = [
  'id',
  'name',
  'issuer',
  'client_id',
  'client_secret_sealed',
  'scopes',
  'accept_unverified_emails',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof OidcProviderRow)[];

const providers = (db: Knex, tenant: Tenant) => tenantTable(db, tenant, 'oidc_providers');

export type NewProvider = Omit<OidcProviderRow, 'id' | 'created_at' | 'updated_at'>;

/** Null when the project already has a provider of that name. */
export async function insertProvider(db: Knex, tenant: Tenant, input: NewProvider): Promise<OidcProviderRow | null> {
  const rows = await providers(db, tenant)
    .insert({ id: randomUUID(), ...tenantColumns(tenant), ...input })
    .onConflict(['tenant_id', 'project_id', 'name'])
    .ignore()
    .returning<OidcProviderRow[]>([...COLUMNS]);
  return rows[0] ?? null;
}

export async function findProvider(db: Knex, tenant: Tenant, name: string): Promise<OidcProviderRow | null> {
  const row = await providers(db, tenant)
    .where({ name })
    .first(...COLUMNS);
  return (row as OidcProviderRow | undefined) ?? null;
}

export async function findProviderById(db: Knex, tenant: Tenant, id: string): Promise<OidcProviderRow | null> {
  const row = await providers(db, tenant)
    .where({ id })
    .first(...COLUMNS);
  return (row as OidcProviderRow | undefined) ?? null;
}

export async function listProviders(db: Knex, tenant: Tenant): Promise<OidcProviderRow[]> {
  return (await providers(db, tenant)
    .orderBy('name')
    .select(...COLUMNS)) as OidcProviderRow[];
}

export async function updateProvider(
  db: Knex,
  tenant: Tenant,
  name: string,
  changes: Partial<NewProvider>,
): Promise<OidcProviderRow | null> {
  const rows = await providers(db, tenant)
    .where({ name })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning<OidcProviderRow[]>([...COLUMNS]);
  return rows[0] ?? null;
}

export async function deleteProvider(db: Knex, tenant: Tenant, name: string): Promise<boolean> {
  return (await providers(db, tenant).where({ name }).delete()) > 0;
}
