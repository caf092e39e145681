/** Store-timezone calendar helpers (dates `YYYY-MM-DD`, times `HH:MM`). */

export const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function isValidTime(s: string): boolean {
  return TIME_RE.test(s);
}

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function fmt(tz: string): Intl.DateTimeFormat {
  let f = fmtCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    fmtCache.set(tz, f);
  }
  return f;
}

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}
function partsIn(tz: string, ms: number): Parts {
  const o: Record<string, number> = {};
  for (const p of fmt(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') o[p.type] = Number(p.value);
  return { y: o.year!, mo: o.month!, d: o.day!, h: o.hour! % 24, mi: o.minute!, s: o.second! };
}

const QUARTER_HOUR = 900_000;
const offsetMemo = new Map<string, number>();

/**
 * The zone's UTC offset at `ms`. Since 1970 every zone changes offset on a quarter-hour boundary of UTC, so an
 * offset found once holds for its whole quarter hour: memoised (formatToParts is the slow part of pricing a
 * period and checking opening hours). Earlier instants (local mean times with odd seconds) are computed each time.
 */
function offsetMs(tz: string, ms: number): number {
  const bucket = ms >= 0 ? Math.floor(ms / QUARTER_HOUR) : null;
  const key = bucket === null ? '' : `${tz}|${bucket}`;
  if (bucket !== null) {
    const known = offsetMemo.get(key);
    if (known !== undefined) return known;
  }
  const p = partsIn(tz, ms);
  const off = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) - Math.floor(ms / 1000) * 1000;
  if (bucket !== null) {
    if (offsetMemo.size >= 50_000) offsetMemo.clear();
    offsetMemo.set(key, off);
  }
  return off;
}

/** Local wall time in `tz` → UTC instant. */
export function localToUtc(date: string, time: string, tz: string): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  let ms = guess - offsetMs(tz, guess);
  const again = guess - offsetMs(tz, ms);
  if (again !== ms) ms = again;
  return new Date(ms);
}

/** UTC instant → `{date, time}` in `tz`. */
export function utcToLocal(at: Date, tz: string): { date: string; time: string } {
  const local = new Date(at.getTime() + offsetMs(tz, at.getTime()));
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: local.toISOString().slice(0, 10), time: `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}` };
}

/** Calendar arithmetic on `YYYY-MM-DD`. */
export function addDays(date: string, n: number): string {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d + n)).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday, of a calendar date. */
export function weekday(date: string): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
}

export const WEEKDAY_KEYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** Rental days: started 24-hour periods after a grace period, minimum 1. */
export function rentalDays(pickup: Date, ret: Date, graceMinutes: number): number {
  const ms = ret.getTime() - pickup.getTime() - graceMinutes * 60_000;
  return Math.max(1, Math.ceil(ms / 86_400_000));
}
