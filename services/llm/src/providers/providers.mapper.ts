import { toIso } from '@platform/tenancy';
import type { ProviderRecord } from './providers.repository';

/** The API shape of a provider configuration; the key never leaves the service. */
export function toProviderResponse(record: ProviderRecord) {
  return { id: record.id, providerType: record.providerType, configured: true, createdAt: toIso(record.createdAt) };
}

export type ProviderView = ReturnType<typeof toProviderResponse>;
