import { PatternTooLargeError, Re2Engine } from './re2-engine';

describe('Re2Engine', () => {
  it('when a pattern is invalid, then a SyntaxError is thrown and its wrapper is freed, so the heap never fills', () => {
    const engine = new Re2Engine();
    // Unfreed, about 38,700 of these exhausted the 16 MiB heap.
    // Matched by name: RE2's SyntaxError comes from the realm the package was evaluated in.
    const failures = new Set<string>();
    for (let i = 0; i < 45_000; i++) {
      try {
        engine.compile('(?=a)b', 'u');
      } catch (error) {
        failures.add((error as Error).name);
      }
    }
    expect([...failures]).toEqual(['SyntaxError']);
    expect(engine.instances).toBe(1);
    expect(engine.compile('^a+$', 'u').test('aaa')).toBe(true);
  }, 60_000);

  it('when the heap of an instance is full, then compiles move to a fresh instance and old regexes stop being usable', () => {
    const engine = new Re2Engine();
    const held = [];
    while (engine.instances < 2 && held.length < 100_000) held.push(engine.compile('^(a+)+$', 'u'));
    expect(engine.instances).toBe(2);
    const latest = held[held.length - 1];
    expect(engine.isUsable(held[0])).toBe(false);
    expect(engine.isUsable(latest)).toBe(true);
    expect(latest.test('aaaa')).toBe(true);
    expect(latest.test('aab')).toBe(false);
  }, 60_000);

  it('when the instance is retired (a request was stopped at its budget), then its regexes stop being usable and new ones compile on a fresh instance', () => {
    const engine = new Re2Engine();
    const before = engine.compile('^a+$', 'u');
    engine.retire();
    expect(engine.isUsable(before)).toBe(false);
    const after = engine.compile('^a+$', 'u');
    expect(engine.instances).toBe(2);
    expect(engine.isUsable(after)).toBe(true);
    expect(after.test('aaa')).toBe(true);
  });

  it('when one pattern needs more than a whole heap, then PatternTooLargeError, and the next pattern compiles', () => {
    const engine = new Re2Engine();
    expect(() => engine.compile('^\\p{L}{1,100}$', 'u')).toThrow(PatternTooLargeError);
    expect(engine.compile('^[a-z]+$', 'u').test('abc')).toBe(true);
  });
});
