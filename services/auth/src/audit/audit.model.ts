import type { ClientInfo } from '../shared/client';

/** Every kind of security event the trail records. */
export const SECURITY_EVENT_TYPES = [
  'sign_up',
  'sign_in',
  'sign_in_failed',
  'lockout',
  'refresh_token_reused',
  'password_changed',
  'password_reset',
  'email_verified',
  'session_ended',
  'mfa_enrolled',
  'mfa_removed',
  'mfa_challenge_failed',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'anonymous_converted',
  'sign_in_code_sent',
  'identity_linked',
  'identity_unlinked',
  'oidc_provider_changed',
] as const;

export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export interface SecurityEventRow {
  id: string;
  /** Insertion order, as a string (bigint). */
  seq: string;
  user_id: string | null;
  type: SecurityEventType;
  created_at: Date;
  ip: string | null;
  user_agent: string | null;
  session_id: string | null;
  data: Record<string, unknown>;
}

export const SECURITY_EVENT_COLUMNS = [
  'id',
  'seq',
  'user_id',
  'type',
  'created_at',
  'ip',
  'user_agent',
  'session_id',
  'data',
] as const satisfies readonly (keyof SecurityEventRow)[];

/** What a feature tells the trail; never a password, a code or a token. */
export interface NewSecurityEvent {
  type: SecurityEventType;
  userId: string | null;
  client: ClientInfo;
  sessionId?: string | null;
  data?: Record<string, unknown>;
}

export interface EventFilter {
  userId?: string;
  types?: SecurityEventType[];
  from?: Date;
  to?: Date;
  limit: number;
  /** The `seq` of the last event of the previous page: the next page starts after it. */
  after?: string;
}
