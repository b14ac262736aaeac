import { errors } from './errors';
import { Joi } from './validation';

const DAY_MS = 86_400_000;

/** `from` and `to` as sent: whole UTC days, YYYY-MM-DD, both included. */
export interface DayRangeQuery {
  from?: string;
  to?: string;
}

/** A range of whole UTC days: `start` is the first day's midnight, `end` the midnight after the last day. */
export interface DayRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

const day = (description: string) =>
  Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
    .description(description);

/** The query keys of a per-day report (usage or statistics charts). */
export const dayRangeKeys = (defaultDays: number) => ({
  from: day(`First UTC day (YYYY-MM-DD), included; default ${defaultDays - 1} days before \`to\``),
  to: day('Last UTC day (YYYY-MM-DD), included; default today'),
});

function utcDay(text: string | undefined, fallback: Date, field: string): Date {
  if (text === undefined) return new Date(Math.floor(fallback.getTime() / DAY_MS) * DAY_MS);
  const parsed = new Date(`${text}T00:00:00.000Z`);
  // 2026-02-30 parses as a March day: only a real calendar day round-trips.
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text) {
    throw errors.validation(`${field} is not a calendar day`, [
      { path: field, message: `${field} must be a real day` },
    ]);
  }
  return parsed;
}

/** The days a per-day report covers: `defaultDays` up to today unless told, never more than `maxDays`. */
export function dayRangeOf(query: DayRangeQuery, defaultDays: number, maxDays: number): DayRange {
  const last = utcDay(query.to, new Date(), 'to');
  const start = utcDay(query.from, new Date(last.getTime() - (defaultDays - 1) * DAY_MS), 'from');
  const days = (last.getTime() - start.getTime()) / DAY_MS + 1;
  if (days < 1) throw errors.validation('from must not be after to', [{ path: 'from', message: 'after to' }]);
  if (days > maxDays) {
    throw errors.validation(`At most ${maxDays} days at once`, [{ path: 'from', message: `over ${maxDays} days` }]);
  }
  return {
    from: start.toISOString().slice(0, 10),
    to: last.toISOString().slice(0, 10),
    start,
    end: new Date(last.getTime() + DAY_MS),
  };
}
