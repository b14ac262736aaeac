/** The daily usage answer turned into what the charts draw: every day of the range, one series per model. */
import type { llm } from '@platform/client';

/** The fields of one day and model of `GET /usage/daily` that the charts read. */
export type DailyEntry = Pick<
  llm.components['schemas']['DailyUsage']['days'][number],
  'day' | 'model' | 'requests' | 'totalTokens' | 'costUsd'
>;

export type Metric = Extract<keyof DailyEntry, 'requests' | 'totalTokens' | 'costUsd'>;

export interface UsageSeries {
  /** Every UTC day of the range (YYYY-MM-DD), days without requests included. */
  days: string[];
  /** The models that had requests in the range, by name. */
  models: string[];
  /** `values[metric][m][d]`: the metric of models[m] on days[d] (0 when it had none; a cost without a price counts 0). */
  values: Record<Metric, number[][]>;
}

const DAY_MS = 86_400_000;

/** The UTC days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= last; at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

export function toUsageSeries(range: { from: string; to: string }, entries: readonly DailyEntry[]): UsageSeries {
  const days = daysBetween(range.from, range.to);
  const models = [...new Set(entries.map((entry) => entry.model))].sort();
  const dayIndex = new Map(days.map((day, i) => [day, i]));
  const blank = () => models.map(() => days.map(() => 0));
  const values: Record<Metric, number[][]> = { requests: blank(), totalTokens: blank(), costUsd: blank() };
  for (const entry of entries) {
    const d = dayIndex.get(entry.day);
    if (d === undefined) continue;
    const m = models.indexOf(entry.model);
    values.requests[m][d] += entry.requests;
    values.totalTokens[m][d] += entry.totalTokens;
    values.costUsd[m][d] += entry.costUsd ?? 0;
  }
  return { days, models, values };
}

/** A model's sums over the range; `costUsd` is null when none of its requests had a price. */
export function totalsOf(entries: readonly DailyEntry[], model: string) {
  const own = entries.filter((entry) => entry.model === model);
  const priced = own.filter((entry) => entry.costUsd !== null);
  return {
    requests: own.reduce((sum, entry) => sum + entry.requests, 0),
    totalTokens: own.reduce((sum, entry) => sum + entry.totalTokens, 0),
    costUsd: priced.length ? priced.reduce((sum, entry) => sum + (entry.costUsd ?? 0), 0) : null,
  };
}

/** The last `count` UTC days up to today, as the range inputs hold them. */
export function lastDays(count: number, now = Date.now()): { from: string; to: string } {
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  return { from: day(now - (count - 1) * DAY_MS), to: day(now) };
}
