/** A user as stored (the password hash never leaves the service). */
export interface UserRow {
  id: string;
  tenant_id: string;
  project_id: string;
  /** Null while the user is anonymous. */
  email: string | null;
  /** Null for a user who signs in only by a provider, an e-mail code or a passkey. */
  password_hash: string | null;
  email_verified: boolean;
  phone_number: string | null;
  phone_verified: boolean;
  avatar_url: string | null;
  username: string | null;
  metadata: Record<string, unknown>;
  is_admin: boolean;
  is_core_account: boolean;
  token_version: number;
  last_login: Date | null;
  /** Set while a builder has the account disabled: no login, no refresh. */
  disabled_at: Date | null;
  /** Set while the user is anonymous (signed in without signing up); cleared when they sign up. */
  anonymous_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns of a user row (the login statements select them too). */
export const USER_COLUMNS = [
  'id',
  'tenant_id',
  'project_id',
  'email',
  'password_hash',
  'email_verified',
  'phone_number',
  'phone_verified',
  'avatar_url',
  'username',
  'metadata',
  'is_admin',
  'is_core_account',
  'token_version',
  'last_login',
  'disabled_at',
  'anonymous_since',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof UserRow)[];
