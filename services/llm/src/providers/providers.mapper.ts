import { toIso } from '@platform/tenancy';
import type { ProviderType } from '../vendors/vendor-types';
import type { ProviderRow } from './providers.repository';

/** A provider configuration as the API returns it; the key never leaves the service. */
export interface Provider {
  id: string;
  providerType: ProviderType;
  configured: true;
  createdAt: string;
}

/** The outcome of POST /v1/providers/test; a refused key is `success: false`, not an error response. */
export interface ProviderTestResult {
  success: boolean;
  message: string;
  providerType: ProviderType;
}

/** Rows become API objects here and nowhere else. */
export function toProvider(row: ProviderRow): Provider {
  return { id: row.id, providerType: row.provider_type, configured: true, createdAt: toIso(row.created_at)! };
}
