import { toIso } from '@platform/tenancy';
import type { SuppressionReason, SuppressionScope } from './suppressions.model';
import type { SuppressionRow } from './suppressions.repository';

/** A suppression as the API returns it. */
export interface Suppression {
  email: string;
  scope: SuppressionScope;
  reason: SuppressionReason;
  providerEvent: string | null;
  providerId: string | null;
  createdAt: string;
}

/** Rows become API objects here and nowhere else. */
export function toSuppression(row: SuppressionRow): Suppression {
  return {
    email: row.email,
    scope: row.scope,
    reason: row.reason,
    providerEvent: row.provider_event,
    providerId: row.provider_id,
    createdAt: toIso(row.created_at)!,
  };
}
