import type { Knex } from 'knex';
import { errors, type Tenant } from '@platform/tenancy';
import type { SecretBox } from '@platform/directory';
import { describeVendorFailure } from '../vendors/vendor-errors';
import { buildVendorClient, type VendorClientCache } from '../vendors/vendor-clients';
import type { ProviderType, VendorClient, VendorOptions } from '../vendors/vendor-types';
import {
  configuredProviders as configuredProviderTypes,
  findProviderSecret,
  listProviders,
  upsertProvider,
} from './providers.repository';
import { toProvider, type Provider, type ProviderTestResult } from './providers.mapper';
import type { SaveProviderInput, TestProviderInput } from './providers.schemas';

/** What reaching a project's vendor takes: its stored keys, their box, the client cache, the vendor endpoints. */
export interface VendorAccess {
  db: Knex;
  secrets: SecretBox;
  clients: VendorClientCache;
  optionsFor(provider: ProviderType): VendorOptions;
}

/** Which vendors the project has credentials for (the keys stay in the service). */
export async function getProviders(db: Knex, tenant: Tenant): Promise<{ providers: Provider[] }> {
  return { providers: (await listProviders(db, tenant)).map(toProvider) };
}

export async function saveProvider(
  vendors: VendorAccess,
  tenant: Tenant,
  input: SaveProviderInput,
): Promise<{ provider: Provider }> {
  const row = await upsertProvider(vendors.db, tenant, {
    providerType: input.providerType,
    apiKeyEnc: vendors.secrets.encrypt(input.apiKey),
    organizationId: input.organizationId ?? null,
  });
  vendors.clients.invalidate(tenant.projectId, input.providerType);
  return { provider: toProvider(row) };
}

/** The project's SDK client for a vendor, or null when the project has not configured it. */
export function vendorClientFor(
  vendors: VendorAccess,
  tenant: Tenant,
  provider: ProviderType,
): Promise<VendorClient | null> {
  return vendors.clients.get(tenant.projectId, provider, async () => {
    const secret = await findProviderSecret(vendors.db, tenant, provider);
    if (!secret) return null;
    const credentials = { apiKey: vendors.secrets.decrypt(secret.api_key_enc), organizationId: secret.organization_id };
    return buildVendorClient(provider, credentials, vendors.optionsFor(provider));
  });
}

export async function requireVendorClient(
  vendors: VendorAccess,
  tenant: Tenant,
  provider: ProviderType,
): Promise<VendorClient> {
  const client = await vendorClientFor(vendors, tenant, provider);
  if (!client) throw notConfigured([provider]);
  return client;
}

/** The vendors this project has stored a key for. */
export function configuredProviders(db: Knex, tenant: Tenant): Promise<ProviderType[]> {
  return configuredProviderTypes(db, tenant);
}

export function notConfigured(providers: ProviderType[]) {
  return errors.providerNotConfigured(
    `No credentials configured for ${providers.join(', ')}; set them with POST /v1/providers`,
  );
}

/** One cheap authenticated vendor call; a refused key is `success: false`, never an error response. */
export async function testProvider(
  vendors: VendorAccess,
  tenant: Tenant,
  input: TestProviderInput,
): Promise<ProviderTestResult> {
  const client = input.apiKey
    ? buildVendorClient(
        input.providerType,
        { apiKey: input.apiKey, organizationId: input.organizationId },
        vendors.optionsFor(input.providerType),
      )
    : await requireVendorClient(vendors, tenant, input.providerType);
  try {
    await client.check();
    return { success: true, message: 'Credentials accepted by the vendor', providerType: input.providerType };
  } catch (error) {
    const failure = describeVendorFailure(error, client.apiKey);
    return { success: false, message: failure.message, providerType: input.providerType };
  }
}
