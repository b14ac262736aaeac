import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth';

/** `{"a":{"a":...1}}`, `depth` objects deep. */
const nested = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

describe('tooDeepAt', () => {
  it('when a value nests exactly the limit, then it passes; one level more, then the path leading there is named', () => {
    expect(tooDeepAt(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(tooDeepAt({ metadata: nested(MAX_JSON_DEPTH) })).toBe('metadata');
    expect(tooDeepAt(nested(MAX_JSON_DEPTH + 1))).toBe('a');
    expect(tooDeepAt(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH, 3)).toBe('a.a.a');
  });

  it('when arrays nest, then they count as objects do, and scalars never count', () => {
    expect(tooDeepAt([[['x']]], 3)).toBeUndefined();
    expect(tooDeepAt([[[['x']]]], 3)).toBe('0');
    expect(tooDeepAt('just text', 0)).toBeUndefined();
  });

  it('when a value nests a hundred thousand levels, then it is measured without overflowing the stack', () => {
    expect(tooDeepAt(nested(100_000))).toBe('a');
  });
});
