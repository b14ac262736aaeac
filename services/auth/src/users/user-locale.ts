import { LOCALE_PATTERN as LOCALE } from '@platform/events';

/** The locale a user's metadata names (`metadata.locale`), when it is a language tag. */
export function userLocale(metadata: Record<string, unknown> | undefined): string | undefined {
  const locale = metadata?.locale;
  return typeof locale === 'string' && LOCALE.test(locale) ? locale : undefined;
}

/**
 * The most preferred language tag of an Accept-Language header (`pt-BR,pt;q=0.9,en;q=0.8`),
 * ignoring `*`, tags that are not language tags, and q=0; undefined when none is left.
 */
export function preferredLocale(header: string | undefined): string | undefined {
  if (!header || header.length > 1000) return undefined;
  let best: { tag: string; q: number } | undefined;
  for (const part of header.split(',').slice(0, 50)) {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = rawTag.trim();
    if (!LOCALE.test(tag)) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    if (!best || q > best.q) best = { tag, q };
  }
  return best?.tag;
}
