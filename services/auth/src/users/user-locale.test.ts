import { preferredLocale, userLocale } from './user-locale';

describe('user locale', () => {
  it('when Accept-Language lists several languages, then the one with the highest q wins (first on ties)', () => {
    expect(preferredLocale('pt-BR,pt;q=0.9,en;q=0.8')).toBe('pt-BR');
    expect(preferredLocale('en;q=0.5, de-AT;q=0.7')).toBe('de-AT');
    expect(preferredLocale('fr, en')).toBe('fr');
  });

  it('when Accept-Language has only wildcards, junk or q=0, then there is no locale', () => {
    expect(preferredLocale('*')).toBeUndefined();
    expect(preferredLocale('en;q=0, __proto__')).toBeUndefined();
    expect(preferredLocale('')).toBeUndefined();
    expect(preferredLocale(undefined)).toBeUndefined();
  });

  it('when metadata.locale is a language tag, then it is the locale; anything else is ignored', () => {
    expect(userLocale({ locale: 'pt-BR' })).toBe('pt-BR');
    expect(userLocale({ locale: 42 })).toBeUndefined();
    expect(userLocale({ locale: '<script>' })).toBeUndefined();
    expect(userLocale({})).toBeUndefined();
  });
});
