import { SEARCH_LANGUAGES, type TenantContext } from '@platform/tenancy';

/** The project's `searchLanguage` setting; `simple` (no stemming, no stop words) when unset or unknown. */
export function searchLanguageOf(tenant: Pick<TenantContext, 'settings'>): string {
  const setting = tenant.settings?.searchLanguage;
  return typeof setting === 'string' && (SEARCH_LANGUAGES as readonly string[]).includes(setting) ? setting : 'simple';
}
