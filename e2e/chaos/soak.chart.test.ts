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

  it('when one sample right after warm-up is low and the rest are flat, then the samples show no upward trend', () => {
    // The mailer's heap in a CI run: one dip at the end of warm-up, flat within half a megabyte after.
    const values = [29.5, 30.1, 29.8, 30.4, 30.2, 30.0, 30.4, 31.7, 31.7, 33, 31.7, 33, 31.7, 31.7, 31.7, 32.1, 31.7];
    const samples = values.map((value, i) => ({ t: (i + 1) * 11_000, value }));
    samples[5].value = 28;
    expect(Math.abs(trendOf(samples, WARM_UP_MS).relative)).toBeLessThan(0.05);
  });

  it('when a heap climbs steadily after warm-up with one sample off the line, then the trend shows it', () => {
    const samples = Array.from({ length: 17 }, (_, i) => ({ t: (i + 1) * 11_000, value: 30 + 0.4 * i }));
    samples[10].value = 25;
    expect(trendOf(samples, WARM_UP_MS).relative).toBeGreaterThan(0.1);
  });
});
