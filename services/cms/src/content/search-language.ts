import type { TenantContext } from '@platform/tenancy';

/** Postgres's built-in text search configurations (since 13): the values `searchLanguage` may take. */
export const SEARCH_LANGUAGES = [
  'simple',
  'arabic',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hungarian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
] as const;

/** The project's `searchLanguage` setting; `simple` (no stemming, no stop words) when unset or unknown. */
export function searchLanguageOf(tenant: Pick<TenantContext, 'settings'>): string {
  const setting = tenant.settings?.searchLanguage;
  return typeof setting === 'string' && (SEARCH_LANGUAGES as readonly string[]).includes(setting) ? setting : 'simple';
}
