import { toIso } from '@platform/tenancy';
import type { FactorRow, FactorStatus } from './mfa.model';

/** A second factor as the API shows it (never its secret). */
export interface Factor {
  id: string;
  type: 'totp';
  status: FactorStatus;
  createdAt: string;
  activatedAt: string | null;
}

export function toFactor(row: FactorRow): Factor {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    createdAt: toIso(row.created_at)!,
    activatedAt: toIso(row.activated_at),
  };
}
