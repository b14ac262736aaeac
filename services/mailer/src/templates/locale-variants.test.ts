import { canonicalLocale, pickLocale } from './locale-variants';

describe('locale variant selection', () => {
  const available = ['pt-BR', 'pt', 'de-AT', 'en-GB'];

  it('when the exact locale exists (in any case), then it is chosen', () => {
    expect(pickLocale(available, 'pt-BR')).toBe('pt-BR');
    expect(pickLocale(available, 'en-gb')).toBe('en-GB');
  });

  it('when only the language matches, then the bare language wins over a regional variant', () => {
    expect(pickLocale(available, 'pt-PT')).toBe('pt');
    expect(pickLocale(['pt-BR', 'pt'], 'pt')).toBe('pt');
  });

  it('when only a regional variant of the language exists, then it is chosen', () => {
    expect(pickLocale(available, 'de')).toBe('de-AT');
    expect(pickLocale(available, 'en-US')).toBe('en-GB');
  });

  it('when no variant has the language or no locale is asked for, then the default (null) is used', () => {
    expect(pickLocale(available, 'fr-FR')).toBeNull();
    expect(pickLocale(available, undefined)).toBeNull();
    expect(pickLocale([], 'pt-BR')).toBeNull();
  });

  it('when a tag is written in any case, then it is canonicalised; anything else is refused', () => {
    expect(canonicalLocale('pt-br')).toBe('pt-BR');
    expect(canonicalLocale('EN')).toBe('en');
    for (const bad of ['', '__proto__', 'p', 'en_US', 'en-', 'x'.repeat(40)]) expect(canonicalLocale(bad)).toBeNull();
  });
});
