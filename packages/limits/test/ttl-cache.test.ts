import { TtlCache } from '../src/ttl-cache';

describe('TtlCache', () => {
  it('when an entry expires or the cache is full, then it is gone', () => {
    const cache = new TtlCache<number>(2);
    cache.set('a', 1, 100, 0);
    expect(cache.get('a', 50)).toBe(1);
    expect(cache.get('a', 150)).toBeUndefined();
    cache.set('b', 2, 100, 0);
    cache.set('c', 3, 100, 0);
    cache.set('d', 4, 100, 0);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('d', 1)).toBe(4);
  });
});
