import { LOCALE_PATTERN } from '@platform/events';

/** Template variants take the same tags as the auth events' `locale`. */
export { LOCALE_PATTERN };

/** The canonical spelling of a locale tag (`pt-br` -> `pt-BR`), or null when it is not one. */
export function canonicalLocale(tag: string): string | null {
  if (!LOCALE_PATTERN.test(tag)) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

const languageOf = (tag: string) => tag.split('-')[0].toLowerCase();

/**
 * Which of the `available` locales serves `requested`: the exact tag, else one of the same
 * language (the bare language first, then the first regional one in the order given), else null
 * for the template's default content.
 */
export function pickLocale(available: string[], requested: string | null | undefined): string | null {
  if (!requested) return null;
  const wanted = requested.toLowerCase();
  const exact = available.find((tag) => tag.toLowerCase() === wanted);
  if (exact) return exact;
  const language = languageOf(wanted);
  return (
    available.find((tag) => tag.toLowerCase() === language) ??
    available.find((tag) => languageOf(tag) === language) ??
    null
  );
}
