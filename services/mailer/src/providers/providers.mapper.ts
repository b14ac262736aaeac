import { toIso } from '@platform/tenancy';
import type { ProviderRow, ProviderType } from './providers.repository';

/** A provider as the API returns it: the config never leaves. */
export interface Provider {
  id: string;
  name: string;
  type: ProviderType;
  isDefault: boolean;
  priority: number;
  createdAt: string;
}

/** Rows become API objects here and nowhere else. */
export function toProvider(row: ProviderRow): Provider {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    isDefault: row.is_default,
    priority: row.priority,
    createdAt: toIso(row.created_at)!,
  };
}
