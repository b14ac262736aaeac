import { floorOf, trendOf, type Series } from './soak.chart';

const WARM_UP_MS = 60_000;
/** Three minutes sampled every 10 s of a heap that climbs by up to 40% between collections once a minute, on a floor of `floor(t)`. */
const sawTooth = (floor: (t: number) => number): Series =>
  Array.from({ length: 18 }, (_, i) => ({ t: i * 10_000, value: floor(i * 10_000) * (1 + (i % 6) / 12) }));

describe('soak trend', () => {
  it('when the heap saw-tooths over a flat floor, then its floor shows no upward trend (the raw samples would)', () => {
    const samples = sawTooth(() => 40);
    expect(trendOf(samples, WARM_UP_MS).relative).toBeGreaterThan(0.1);
    expect(Math.abs(trendOf(floorOf(samples, 6), WARM_UP_MS).relative)).toBeLessThan(0.02);
  });

  it('when the floor climbs by a quarter after warm-up, then the trend of the floor shows it', () => {
    const samples = sawTooth((t) => 40 * (1 + (0.25 * Math.max(0, t - WARM_UP_MS)) / 110_000));
    expect(trendOf(floorOf(samples, 6), WARM_UP_MS).relative).toBeGreaterThan(0.1);
  });

  it('when the growth happened during warm-up only, then it is not counted', () => {
    const samples = Array.from({ length: 18 }, (_, i) => ({ t: i * 10_000, value: i < 6 ? 20 + 5 * i : 50 }));
    expect(trendOf(samples, WARM_UP_MS).relative).toBe(0);
  });
});
