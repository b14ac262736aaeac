/**
 * Why a provider sign-in ended on the app's redirect URL with `?error=`: the provider's own
 * error codes (access_denied, ...) pass through, these are ours.
 */
export type OidcErrorCode =
  | 'provider_not_found'
  | 'temporarily_unavailable'
  | 'invalid_state'
  | 'expired'
  | 'invalid_request'
  | 'exchange_failed'
  | 'invalid_id_token'
  | 'email_not_verified'
  | 'identity_already_linked'
  | 'account_disabled'
  | 'server_error';

/** Ends a flow on the app's redirect URL with this code. */
export class OidcRedirectError extends Error {
  override readonly name = 'OidcRedirectError';
  constructor(readonly code: OidcErrorCode | string) {
    super(code);
  }
}

/** A provider's `error` parameter as it may travel on: an OAuth error code, or server_error. */
export const providerErrorCode = (value: unknown): string =>
  typeof value === 'string' && /^[a-z_]{1,64}$/.test(value) ? value : 'server_error';

/** `redirect_to` with `?error=code` (or other parameters) added to what it already has. */
export function appRedirect(redirectTo: string, params: Record<string, string>): string {
  const url = new URL(redirectTo);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
