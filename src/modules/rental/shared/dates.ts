import { invalidParam, RentalErrors } from '../errors.js';

/** Longest report range accepted (three years, leap days included). */
export const MAX_RANGE_DAYS = 1096;
/** Default report range: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** True for a real calendar date written YYYY-MM-DD (years 0001–9999: PostgreSQL has no year 0). */
export function isYmd(v: string): boolean {
  const m = YMD.exec(v);
  if (!m || m[1] === '0000') return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

/** The calendar date of an instant in a time zone, as YYYY-MM-DD. */
export function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

export function addDays(ymd: string, days: number): string {
  return new Date(Date.parse(`${ymd}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from a to b inclusive (both YYYY-MM-DD). */
export function daysInclusive(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS) + 1;
}

export interface DateRange {
  start: string;
  end: string;
  days: number;
}

/**
 * Report range from the optional `start_date`/`end_date` parameters (YYYY-MM-DD, store time zone, inclusive).
 * Missing end → today; missing start → end − 29 days. Bad format → 400 INVALID_PARAMS; start after end or a
 * range longer than MAX_RANGE_DAYS → 400 INVALID_DATE_RANGE.
 */
export function parseRange(q: { start_date?: unknown; end_date?: unknown }, timeZone: string, now: Date): DateRange {
  for (const name of ['start_date', 'end_date'] as const) {
    const v = q[name];
    if (v !== undefined && (typeof v !== 'string' || !isYmd(v))) {
      throw invalidParam(name, `${name} must be a date written YYYY-MM-DD.`, 'expected YYYY-MM-DD');
    }
  }
  const end = typeof q.end_date === 'string' ? q.end_date : localDate(now, timeZone);
  const start = typeof q.start_date === 'string' ? q.start_date : addDays(end, -(DEFAULT_RANGE_DAYS - 1));
  if (start > end)
    throw RentalErrors.invalidDateRange('start_date must not be after end_date.', { start_date: start, end_date: end });
  const days = daysInclusive(start, end);
  if (days > MAX_RANGE_DAYS) {
    throw RentalErrors.invalidDateRange(
      `The date range is too long: at most ${MAX_RANGE_DAYS} days (about 3 years) per report.`,
      {
        start_date: start,
        end_date: end,
        days,
        max_days: MAX_RANGE_DAYS,
      },
    );
  }
  return { start, end, days };
}
