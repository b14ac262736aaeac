import { ERASING_SERVICES } from '@platform/events';
import { toIso } from '@platform/tenancy';
import type { ConfirmationRow, ErasureRow } from './erasure.repository';

/** A deleted project's erasure: each of the six services' confirmation, null until it answers. */
export interface Erasure {
  requestedAt: string;
  complete: boolean;
  services: Record<string, string | null>;
}

export function toErasure(erasure: ErasureRow, confirmations: ConfirmationRow[]): Erasure {
  const by = new Map(confirmations.map((c) => [c.service, toIso(c.erased_at)]));
  return {
    requestedAt: toIso(erasure.requested_at)!,
    complete: ERASING_SERVICES.every((s) => by.has(s)),
    services: Object.fromEntries(ERASING_SERVICES.map((s) => [s, by.get(s) ?? null])),
  };
}
