import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { tenantColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { ProviderType } from '../vendors/vendor-types';

/** A row of `providers` (the columns this service reads and writes). */
interface ProviderTableRow {
  id: string;
  tenant_id: string;
  project_id: string;
  provider_type: ProviderType;
  api_key_enc: string;
  organization_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A provider configuration as the API shows it (the key stays out). */
const PROVIDER_COLUMNS = ['id', 'provider_type', 'created_at'] as const;
export type ProviderRow = Pick<ProviderTableRow, (typeof PROVIDER_COLUMNS)[number]>;

/** The stored credentials of one vendor, still encrypted. */
const SECRET_COLUMNS = ['api_key_enc', 'organization_id'] as const;
export type ProviderSecretRow = Pick<ProviderTableRow, (typeof SECRET_COLUMNS)[number]>;

/** Inserts or replaces the project's credentials for one vendor; created_at stays the first one. */
export async function upsertProvider(
  db: Knex,
  tenant: Tenant,
  input: { providerType: ProviderType; apiKeyEnc: string; organizationId: string | null },
): Promise<ProviderRow> {
  const [row] = await tenantTable<ProviderTableRow>(db, tenant, 'providers')
    .insert({
      id: randomUUID(),
      ...tenantColumns(tenant),
      provider_type: input.providerType,
      api_key_enc: input.apiKeyEnc,
      organization_id: input.organizationId,
    })
    .onConflict(['tenant_id', 'project_id', 'provider_type'])
    .merge({ api_key_enc: input.apiKeyEnc, organization_id: input.organizationId, updated_at: db.fn.now() })
    .returning<ProviderRow[]>(PROVIDER_COLUMNS);
  return row;
}

export async function findProviderSecret(
  db: Knex,
  tenant: Tenant,
  providerType: ProviderType,
): Promise<ProviderSecretRow | null> {
  const row = await tenantTable<ProviderTableRow>(db, tenant, 'providers')
    .where({ provider_type: providerType })
    .first<ProviderSecretRow | undefined>(...SECRET_COLUMNS);
  return row ?? null;
}

/** The project's vendor configurations (never their keys), oldest first. */
export async function listProviders(db: Knex, tenant: Tenant): Promise<ProviderRow[]> {
  return tenantTable<ProviderTableRow>(db, tenant, 'providers')
    .orderBy('created_at')
    .select<ProviderRow[]>(...PROVIDER_COLUMNS);
}

export async function configuredProviders(db: Knex, tenant: Tenant): Promise<ProviderType[]> {
  return tenantTable<ProviderTableRow>(db, tenant, 'providers').pluck('provider_type');
}
