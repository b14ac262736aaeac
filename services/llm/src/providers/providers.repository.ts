import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Tenant } from '@platform/tenancy';
import type { ProviderType } from '../vendors/vendor-types';

export interface ProviderRecord {
  id: string;
  providerType: ProviderType;
  createdAt: Date;
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
  const [row] = await db('providers')
    .insert({
      id: randomUUID(),
      tenant_id: tenant.tenantId,
      project_id: tenant.projectId,
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
  const row = await db('providers')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId, provider_type: providerType })
    .first('api_key_enc', 'organization_id');
  return row ? { apiKeyEnc: row.api_key_enc, organizationId: row.organization_id } : null;
}

export async function configuredProviders(db: Knex, tenant: Tenant): Promise<ProviderType[]> {
  const rows = await db('providers')
    .where({ tenant_id: tenant.tenantId, project_id: tenant.projectId })
    .select('provider_type');
  return rows.map((row: { provider_type: ProviderType }) => row.provider_type);
}
