import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ownerColumns, tenantTable } from '@platform/db';
import type { Tenant } from '@platform/tenancy';
import type { ProviderType } from '../vendors/vendor-types';

export interface ProviderRecord {
  id: string;
  providerType: ProviderType;
  createdAt: Date;
}

/** A row of `providers` (the columns this service reads and writes). */
interface ProviderRow {
  id: string;
  tenant_id: string;
  project_id: string;
  provider_type: ProviderType;
  api_key_enc: string;
  organization_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ProviderSecretRecord {
  apiKeyEnc: string;
  organizationId: string | null;
}

/** Inserts or replaces the project's credentials for one vendor; createdAt stays the first one. */
export async function upsertProvider(
  db: Knex,
  tenant: Tenant,
  input: { providerType: ProviderType; apiKeyEnc: string; organizationId: string | null },
): Promise<ProviderRecord> {
  const [row] = await tenantTable<ProviderRow>(db, tenant, 'providers')
    .insert({
      id: randomUUID(),
      ...ownerColumns(tenant),
      provider_type: input.providerType,
      api_key_enc: input.apiKeyEnc,
      organization_id: input.organizationId,
    })
    .onConflict(['tenant_id', 'project_id', 'provider_type'])
    .merge({ api_key_enc: input.apiKeyEnc, organization_id: input.organizationId, updated_at: db.fn.now() })
    .returning(['id', 'provider_type', 'created_at']);
  return { id: row.id, providerType: row.provider_type, createdAt: row.created_at };
}

export async function findProviderSecret(
  db: Knex,
  tenant: Tenant,
  providerType: ProviderType,
): Promise<ProviderSecretRecord | null> {
  const row = await tenantTable<ProviderRow>(db, tenant, 'providers')
    .where({ provider_type: providerType })
    .first('api_key_enc', 'organization_id');
  return row ? { apiKeyEnc: row.api_key_enc, organizationId: row.organization_id } : null;
}

export async function configuredProviders(db: Knex, tenant: Tenant): Promise<ProviderType[]> {
  const rows = await tenantTable<ProviderRow>(db, tenant, 'providers').select('provider_type');
  return rows.map((row: { provider_type: ProviderType }) => row.provider_type);
}
