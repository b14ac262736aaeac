import { nextFreeSlug, slugify, SLUG_PATTERN } from './slug';

describe('slugify', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Hello,   World!  ', 'hello-world'],
    ['Crème Brûlée', 'creme-brulee'],
    ['Straße', 'strasse'],
    ['Æbleskiver på Øresund', 'aebleskiver-pa-oresund'],
    ['Łódź', 'lodz'],
    ['Þór and Ðoð', 'thor-and-dod'],
    ['Cœur & Âme', 'coeur-and-ame'],
    ['Ｆｕｌｌｗｉｄｔｈ ①', 'fullwidth-1'],
    ['İstanbul ılık', 'istanbul-ilik'],
    ['C++ 2.0 / TypeScript_5', 'c-2-0-typescript-5'],
  ])('when the title is %p, then the slug is %p', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('when nothing transliterates to ASCII, then the slug is "untitled"', () => {
    expect(slugify('日本語 !!!')).toBe('untitled');
  });

  it('when the title is very long, then the slug is cut at a word boundary within 80 characters', () => {
    const slug = slugify('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug).toMatch(SLUG_PATTERN);
    expect(slug.endsWith('word')).toBe(true);
  });

  it('when the title is one very long word, then the slug keeps its first 80 letters', () => {
    expect(slugify('a'.repeat(300))).toBe('a'.repeat(80));
  });
});

describe('nextFreeSlug', () => {
  it('when the base is free, then it is used as it is', () => {
    expect(nextFreeSlug('hello', { baseTaken: false, highestSuffix: 2 })).toBe('hello');
  });

  it('when the base is taken and no suffix is, then -2 follows', () => {
    expect(nextFreeSlug('hello', { baseTaken: true, highestSuffix: 0 })).toBe('hello-2');
  });

  it('when suffixes are taken, then the one after the highest follows', () => {
    expect(nextFreeSlug('hello', { baseTaken: true, highestSuffix: 7 })).toBe('hello-8');
  });
});
