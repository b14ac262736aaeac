/** Letters that NFKD does not decompose into ASCII plus a combining mark. */
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  ø: 'o',
  Ø: 'o',
  œ: 'oe',
  Œ: 'oe',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  ħ: 'h',
  Ħ: 'h',
  ŧ: 't',
  Ŧ: 't',
  ŋ: 'n',
  Ŋ: 'n',
  ĸ: 'k',
  '&': ' and ',
};

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 200;
/** Generated slugs stop here so that a `-N` suffix still fits. */
const GENERATED_BASE_MAX = 80;
const FALLBACK_SLUG = 'untitled';

/** "Crème Brûlée & Straße" -> "creme-brulee-and-strasse": ASCII, lowercase, hyphens. */
export function slugify(title: string): string {
  const ascii = title
    .replace(/[ßẞæÆøØœŒđĐðÐþÞłŁıħĦŧŦŋŊĸ&]/g, (ch) => SPECIAL_LETTERS[ch] ?? ch)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
  const hyphenated = ascii.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const trimmed =
    hyphenated.length > GENERATED_BASE_MAX
      ? hyphenated.slice(0, GENERATED_BASE_MAX).replace(/-+[^-]*$/, '')
      : hyphenated;
  // A single 80-letter word has no hyphen to cut at; keep its first 80 letters then.
  const base = trimmed || hyphenated.slice(0, GENERATED_BASE_MAX);
  return base.replace(/-+$/, '') || FALLBACK_SLUG;
}

/** The next free slug for `base`: itself when free, else one past the highest `base-N` (from -2). */
export function nextFreeSlug(base: string, usage: { baseTaken: boolean; highestSuffix: number }): string {
  return usage.baseTaken ? `${base}-${Math.max(usage.highestSuffix, 1) + 1}` : base;
}
