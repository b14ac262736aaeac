import { median, percentile } from './stats';

describe('stats', () => {
  it('when the count is odd or even, then the median is the middle value or the mean of the two', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('when asked for p50 and p99 of 1..100, then they are the ranks below q·n', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 0.5)).toBe(51);
    expect(percentile(values, 0.99)).toBe(100);
    expect(percentile([], 0.5)).toBeNaN();
  });
});
