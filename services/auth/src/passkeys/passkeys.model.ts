import { toIso } from '@platform/tenancy';

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  sign_count: string;
  transports: string[];
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

export const PASSKEY_COLUMNS = [
  'id',
  'user_id',
  'credential_id',
  'public_key',
  'sign_count',
  'transports',
  'device_type',
  'backed_up',
  'name',
  'created_at',
  'last_used_at',
] as const satisfies readonly (keyof PasskeyRow)[];

export type CeremonyKind = 'registration' | 'authentication';

export interface PasskeyChallengeRow {
  id: string;
  user_id: string | null;
  kind: CeremonyKind;
  challenge: string;
  expires_at: Date;
}

/** A ceremony's challenge is good this long, and once. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;

/** A passkey as the API shows it (never its public key). */
export interface Passkey {
  id: string;
  name: string;
  deviceType: string;
  backedUp: boolean;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    deviceType: row.device_type,
    backedUp: row.backed_up,
    transports: row.transports,
    createdAt: toIso(row.created_at)!,
    lastUsedAt: toIso(row.last_used_at),
  };
}
