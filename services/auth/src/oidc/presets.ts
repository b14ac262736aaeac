/** Issuers of well-known providers, so that a project can name one instead of its URL. */
export const OIDC_PRESETS = {
  google: 'https://accounts.google.com',
  apple: 'https://appleid.apple.com',
  gitlab: 'https://gitlab.com',
  salesforce: 'https://login.salesforce.com',
} as const;
