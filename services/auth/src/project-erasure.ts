/**
 * Every table of this service that holds a project's rows, in the order a deleted project's
 * rows are erased (issue #33). Rows that hang off a user go before the users so their batches
 * stay small; security events without a user (a failed sign-in for an unknown e-mail) go by project.
 */
export const ERASURE_TABLES = [
  'authorization_codes',
  'oidc_flows',
  'user_identities',
  'email_sign_ins',
  'refresh_tokens',
  'account_tokens',
  'login_failures',
  'passkey_challenges',
  'passkeys',
  'mfa_challenges',
  'mfa_recovery_codes',
  'mfa_factors',
  'security_events',
  'sessions',
  'users',
  'oidc_providers',
] as const;
