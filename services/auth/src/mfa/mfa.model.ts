export type FactorStatus = 'pending' | 'active';

export interface FactorRow {
  id: string;
  user_id: string;
  type: 'totp';
  status: FactorStatus;
  secret_sealed: string;
  last_used_step: string | null;
  created_at: Date;
  activated_at: Date | null;
}

export const FACTOR_COLUMNS = [
  'id',
  'user_id',
  'type',
  'status',
  'secret_sealed',
  'last_used_step',
  'created_at',
  'activated_at',
] as const satisfies readonly (keyof FactorRow)[];

export interface ChallengeRow {
  id: string;
  user_id: string;
  expires_at: Date;
  used_at: Date | null;
}

/** A password sign-in waits this long for its second factor. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const RECOVERY_CODE_COUNT = 10;
