import { isWithinTolerance, windowEndOf } from './webhook-window';

describe('webhook timestamp window', () => {
  const now = 1_800_000_000_000;

  it('when the timestamp is within the tolerance either way, then it is accepted; beyond it, refused', () => {
    expect(isWithinTolerance('1800000000', 300, now)).toBe(true);
    expect(isWithinTolerance('1799999700', 300, now)).toBe(true);
    expect(isWithinTolerance('1800000300', 300, now)).toBe(true);
    expect(isWithinTolerance('1799999699', 300, now)).toBe(false);
    expect(isWithinTolerance('1800000301', 300, now)).toBe(false);
  });

  it('when the timestamp is not plain unix seconds, then it is refused', () => {
    for (const bad of ['', '-1800000000', '1800000000.5', '1e9', ' 1800000000', '18000000000000', 'abc']) {
      expect(isWithinTolerance(bad, 300, now)).toBe(false);
    }
  });

  it('the window of a timestamp ends tolerance seconds after it', () => {
    expect(windowEndOf('1800000000', 300).getTime()).toBe(1_800_000_300_000);
  });
});
