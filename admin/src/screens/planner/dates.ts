// Planner date maths, pure: calendar days in the STORE time zone (never the browser's). Calendar arithmetic runs on
// UTC dates (YYYY-MM-DD); instants are placed on the grid against each day's own start, so a 23- or 25-hour day
// across a DST change is one column and a booking's edge lands at the right hour inside it.

// Self-contained (no imports): the browser tests compute their expectations with it too.

export type View = 'week' | 'month';

const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();
/** One Intl.DateTimeFormat per locale and options (building one costs far more than using it; a month grid formats thousands of dates). */
export function dateFormat(locale: string | undefined, o: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(o)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, o);
    formats.set(key, f);
  }
  return f;
}
const ymdUtc = (ymd: string): number => Date.parse(`${ymd}T00:00:00Z`);

export function addDays(ymd: string, days: number): string {
  return new Date(ymdUtc(ymd) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Today's calendar date in `timeZone` at instant `now`. */
export function todayIn(timeZone: string, now: Date): string {
  return dateIn(now.getTime(), timeZone);
}

/** Days from a to b inclusive. */
export function dayCount(from: string, to: string): number {
  return Math.round((ymdUtc(to) - ymdUtc(from)) / DAY_MS) + 1;
}

/** Every day from `from` to `to` inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Monday of the ISO week holding `ymd`. */
export function mondayOf(ymd: string): string {
  const wd = new Date(ymdUtc(ymd)).getUTCDay(); // 0 = Sunday
  return addDays(ymd, -((wd + 6) % 7));
}

export function firstOfMonth(ymd: string): string {
  return `${ymd.slice(0, 7)}-01`;
}

export function lastOfMonth(ymd: string): string {
  const [y, m] = ymd.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The visible window of a view around `anchor`: Monday–Sunday, or the calendar month. */
export function windowOf(view: View, anchor: string): { from: string; to: string } {
  if (view === 'week') {
    const from = mondayOf(anchor);
    return { from, to: addDays(from, 6) };
  }
  return { from: firstOfMonth(anchor), to: lastOfMonth(anchor) };
}

/** The anchor of the previous (-1) or next (+1) window. */
export function shiftAnchor(view: View, anchor: string, dir: -1 | 1): string {
  if (view === 'week') return addDays(mondayOf(anchor), 7 * dir);
  const [y, m] = anchor.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + dir, 1)).toISOString().slice(0, 10);
}

/** Offset of `timeZone` from UTC at instant `ms`, in ms (positive east of Greenwich). */
export function offsetAt(timeZone: string, ms: number): number {
  const f = dateFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant (UTC ms) a calendar day starts in `timeZone`. */
export function startOfDay(ymd: string, timeZone: string): number {
  const guess = ymdUtc(ymd);
  let ms = guess - offsetAt(timeZone, guess);
  const again = guess - offsetAt(timeZone, ms);
  if (again !== ms) ms = again;
  return ms;
}

/** Start instants of each day of the window plus the end of the last day: n + 1 boundaries. */
export function dayStarts(days: readonly string[], timeZone: string): number[] {
  if (!days.length) return [];
  return [...days.map((d) => startOfDay(d, timeZone)), startOfDay(addDays(days[days.length - 1]!, 1), timeZone)];
}

/** Length of a calendar day in hours in `timeZone` (23, 24 or 25 around DST changes). */
export function hoursInDay(ymd: string, timeZone: string): number {
  return (startOfDay(addDays(ymd, 1), timeZone) - startOfDay(ymd, timeZone)) / 3_600_000;
}

/**
 * Where instant `ms` falls on the grid, in columns (0 = start of the first day, n = end of the last), clamped: the
 * fraction inside a day is measured against that day's own length.
 */
export function columnOf(ms: number, starts: readonly number[]): number {
  const n = starts.length - 1;
  if (n < 1 || ms <= starts[0]!) return 0;
  if (ms >= starts[n]!) return n;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo + (ms - starts[lo]!) / (starts[lo + 1]! - starts[lo]!);
}

/** The calendar date of an instant in `timeZone`. */
export function dateIn(ms: number, timeZone: string): string {
  return dateFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/** A deadline in few characters: "14:30" on the same store-local day as `nowMs`, else "26 Nov 14:30". */
export function shortDateTime(ms: number, timeZone: string, nowMs: number, locale = 'en-GB'): string {
  const time = dateFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(ms),
  );
  if (dateIn(ms, timeZone) === dateIn(nowMs, timeZone)) return time;
  return `${dateFormat(locale, { timeZone, day: 'numeric', month: 'short' }).format(new Date(ms))} ${time}`;
}

/** "25 Nov 2026, 14:30" in `timeZone`. */
export function dateTimeIn(ms: number, timeZone: string, locale?: string): string {
  return dateFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/** "3–5 June", "30 May – 2 June", "30 Dec 2026 – 2 Jan 2027": the store-local dates of a period. */
export function periodLabel(fromMs: number, toMs: number, timeZone: string, locale = 'en-GB'): string {
  const a = dateIn(fromMs, timeZone);
  const b = dateIn(toMs, timeZone);
  const fmt = (ymd: string, o: Intl.DateTimeFormatOptions) =>
    dateFormat(locale, { timeZone: 'UTC', ...o }).format(new Date(ymdUtc(ymd)));
  if (a === b) return fmt(a, { day: 'numeric', month: 'long' });
  if (a.slice(0, 4) !== b.slice(0, 4))
    return `${fmt(a, { day: 'numeric', month: 'short', year: 'numeric' })} – ${fmt(b, { day: 'numeric', month: 'short', year: 'numeric' })}`;
  if (a.slice(0, 7) === b.slice(0, 7))
    return `${fmt(a, { day: 'numeric' })}–${fmt(b, { day: 'numeric', month: 'long' })}`;
  return `${fmt(a, { day: 'numeric', month: 'long' })} – ${fmt(b, { day: 'numeric', month: 'long' })}`;
}

/** A day's column heading: weekday and day of month ("Mon 3"), in the store calendar. */
export function dayHeading(ymd: string, locale = 'en-GB'): { weekday: string; day: string; long: string } {
  const d = new Date(ymdUtc(ymd));
  const f = (o: Intl.DateTimeFormatOptions) => dateFormat(locale, { timeZone: 'UTC', ...o }).format(d);
  return {
    weekday: f({ weekday: 'short' }),
    day: f({ day: 'numeric' }),
    long: f({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
  };
}

/** The window's title: "3–9 June 2027" or "June 2027". */
export function windowTitle(view: View, from: string, to: string, locale = 'en-GB'): string {
  const f = (ymd: string, o: Intl.DateTimeFormatOptions) =>
    dateFormat(locale, { timeZone: 'UTC', ...o }).format(new Date(ymdUtc(ymd)));
  if (view === 'month') return f(from, { month: 'long', year: 'numeric' });
  if (from.slice(0, 7) === to.slice(0, 7))
    return `${f(from, { day: 'numeric' })}–${f(to, { day: 'numeric', month: 'long', year: 'numeric' })}`;
  if (from.slice(0, 4) === to.slice(0, 4))
    return `${f(from, { day: 'numeric', month: 'long' })} – ${f(to, { day: 'numeric', month: 'long', year: 'numeric' })}`;
  return `${f(from, { day: 'numeric', month: 'long', year: 'numeric' })} – ${f(to, { day: 'numeric', month: 'long', year: 'numeric' })}`;
}
