/** The soak's curves: a robust trend per series, and small charts for the terminal or an SVG file. */

import { median } from '@platform/testkit';

export type Series = { t: number; value: number }[];

/**
 * The running minimum of the last `width` samples: a heap sampled at random points of its GC saw-tooth
 * wanders by a third, but a leak lifts the floor it falls back to.
 */
export function floorOf(points: Series, width: number): Series {
  // Trailing, so the last samples' floor is not the minimum of fewer samples than the others'.
  return points.map((p, i) => ({
    t: p.t,
    value: Math.min(...points.slice(Math.max(0, i - width + 1), i + 1).map((q) => q.value)),
  }));
}

/**
 * The fitted line's value at the warm-up's end and at the last sample, and the relative change.
 * The line is Theil-Sen's (the median of the slopes between every two samples): a leak climbs
 * between most pairs, while one sample off the line (a pool closing an idle connection just
 * then) moves a least-squares fit of a short run by as much as a leak would.
 */
export function trendOf(
  points: Series,
  warmUpMs: number,
): { start: number; end: number; growth: number; relative: number } {
  const after = points.filter((p) => p.t >= warmUpMs && Number.isFinite(p.value));
  if (after.length < 2) return { start: after[0]?.value ?? 0, end: after[0]?.value ?? 0, growth: 0, relative: 0 };
  const slopes: number[] = [];
  for (let i = 0; i < after.length; i++) {
    for (let j = i + 1; j < after.length; j++) {
      if (after[j].t > after[i].t) slopes.push((after[j].value - after[i].value) / (after[j].t - after[i].t));
    }
  }
  const slope = median(slopes);
  const intercept = median(after.map((p) => p.value - slope * p.t));
  const start = intercept + slope * after[0].t;
  const end = intercept + slope * after[after.length - 1].t;
  return { start, end, growth: end - start, relative: start > 0 ? (end - start) / start : 0 };
}

const BARS = '▁▂▃▄▅▆▇█';

/** One sparkline per series whose name ends with one of `kinds` (text), or the same as SVG polylines. */
export function soakChart(series: Record<string, Series>, kinds: string[], format: 'text' | 'svg' = 'text'): string {
  const chosen = Object.entries(series).filter(([name]) => kinds.some((k) => name.endsWith(k)));
  if (format === 'text') {
    const width = Math.max(...chosen.map(([name]) => name.length));
    return chosen
      .map(([name, points]) => {
        const values = points.map((p) => p.value);
        const lo = Math.min(...values);
        const hi = Math.max(...values);
        const line = values
          .map((v) => BARS[hi > lo ? Math.round(((v - lo) / (hi - lo)) * (BARS.length - 1)) : 0])
          .join('');
        return `   ${name.padEnd(width)} ${lo.toFixed(0).padStart(5)}-${hi.toFixed(0).padEnd(5)} ${line}`;
      })
      .join('\n');
  }
  const W = 600;
  const H = 120;
  const rows = chosen.map(([name, points], i) => {
    const values = points.map((p) => p.value);
    const hi = Math.max(...values, 1);
    const tMax = Math.max(...points.map((p) => p.t), 1);
    const coords = points
      .map((p) => `${((p.t / tMax) * W).toFixed(1)},${(H - (p.value / hi) * H).toFixed(1)}`)
      .join(' ');
    const y = i * (H + 30);
    return `<g transform="translate(10,${y + 20})"><text y="-5" font-size="12">${name} (max ${hi.toFixed(1)})</text><rect width="${W}" height="${H}" fill="none" stroke="#ccc"/><polyline fill="none" stroke="#36c" points="${coords}"/></g>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W + 20}" height="${chosen.length * (H + 30) + 20}">${rows.join('')}</svg>\n`;
}
