import type { ClientInfo } from '../shared/client';

/** How the session was signed in to. */
export type SignInMethod = 'password' | 'registration' | 'mfa' | 'passkey' | 'anonymous' | 'email_code' | 'oidc';

/** Authenticator assurance level: `aal2` after a second factor or a passkey. */
export type AssuranceLevel = 'aal1' | 'aal2';

/** Who or what ended a session (kept on the row and in the audit trail). */
export type EndedBy = 'user' | 'logout' | 'project' | 'password_change' | 'password_reset' | 'reuse_detected';

export interface SessionRow {
  id: string;
  user_id: string;
  method: SignInMethod;
  aal: AssuranceLevel;
  ip: string | null;
  user_agent: string | null;
  device_label: string;
  created_at: Date;
  last_refreshed_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  ended_by: EndedBy | null;
}

export const SESSION_COLUMNS = [
  'id',
  'user_id',
  'method',
  'aal',
  'ip',
  'user_agent',
  'device_label',
  'created_at',
  'last_refreshed_at',
  'expires_at',
  'ended_at',
  'ended_by',
] as const satisfies readonly (keyof SessionRow)[];

/** What a new session records of its sign-in. */
export interface NewSession {
  id: string;
  userId: string;
  method: SignInMethod;
  aal: AssuranceLevel;
  client: ClientInfo;
  expiresAt: Date;
}
