import { daysBetween, lastDays, totalsOf, toUsageSeries, type DailyEntry } from '../web/src/pages/llm/usage-series';

const entry = (day: string, model: string, requests: number, costUsd: number | null): DailyEntry => ({
  day,
  model,
  requests,
  totalTokens: requests * 10,
  costUsd,
});

describe('the LLM usage charts’ series', () => {
  it('when days had no request, then they are in the series as zeros, and each model has its own line', () => {
    const series = toUsageSeries({ from: '2026-02-27', to: '2026-03-02' }, [
      entry('2026-02-27', 'gpt-4o-mini', 3, 0.5),
      entry('2026-03-01', 'claude-3-5-haiku-latest', 1, null),
      entry('2026-03-02', 'gpt-4o-mini', 2, 0.25),
    ]);
    expect(series.days).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(series.models).toEqual(['claude-3-5-haiku-latest', 'gpt-4o-mini']);
    expect(series.values.requests).toEqual([
      [0, 0, 1, 0],
      [3, 0, 0, 2],
    ]);
    expect(series.values.totalTokens[1]).toEqual([30, 0, 0, 20]);
    // A request without a price draws as no cost.
    expect(series.values.costUsd).toEqual([
      [0, 0, 0, 0],
      [0.5, 0, 0, 0.25],
    ]);
  });

  it('when a model had no priced request, then its total cost is unknown (null), not zero', () => {
    const entries = [
      entry('2026-03-01', 'a', 1, null),
      entry('2026-03-02', 'a', 2, null),
      entry('2026-03-02', 'b', 4, 1),
    ];
    expect(totalsOf(entries, 'a')).toEqual({ requests: 3, totalTokens: 30, costUsd: null });
    expect(totalsOf(entries, 'b')).toEqual({ requests: 4, totalTokens: 40, costUsd: 1 });
  });

  it('when the range is the last n days, then it ends today (UTC) and holds n days', () => {
    const now = Date.parse('2026-03-01T23:30:00Z');
    const range = lastDays(7, now);
    expect(range).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(daysBetween(range.from, range.to)).toHaveLength(7);
  });
});
