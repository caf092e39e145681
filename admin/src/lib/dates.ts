// Date-range presets for reports, computed on calendar dates in the STORE time zone (not the browser's): the API
// takes start_date/end_date as YYYY-MM-DD in that zone. Calendar arithmetic runs on UTC dates, so a DST change
// (a 23- or 25-hour day) never shifts a boundary.

export const PRESETS = [
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
  { id: '90d', label: 'Last 90 days' },
  { id: 'this_month', label: 'This month' },
  { id: 'last_month', label: 'Last month' },
  { id: 'this_year', label: 'This year' },
] as const;

export type PresetId = (typeof PRESETS)[number]['id'];

export interface DateRange {
  /** YYYY-MM-DD, inclusive, in the store time zone. */
  start: string;
  end: string;
}

/** Today's calendar date in `timeZone` at instant `now`, as YYYY-MM-DD. */
export function todayIn(timeZone: string, now: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

const toUtc = (ymd: string): Date => new Date(`${ymd}T00:00:00Z`);
const fromUtc = (d: Date): string => d.toISOString().slice(0, 10);

export function addDays(ymd: string, days: number): string {
  const d = toUtc(ymd);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
}

export function isPreset(v: string | null): v is PresetId {
  return PRESETS.some((p) => p.id === v);
}

export function presetRange(id: PresetId, now: Date, timeZone: string): DateRange {
  const today = todayIn(timeZone, now);
  const [y, m] = today.split('-').map(Number) as [number, number];
  switch (id) {
    case '7d':
      return { start: addDays(today, -6), end: today };
    case '30d':
      return { start: addDays(today, -29), end: today };
    case '90d':
      return { start: addDays(today, -89), end: today };
    case 'this_month':
      return { start: fromUtc(new Date(Date.UTC(y, m - 1, 1))), end: today };
    case 'last_month':
      return { start: fromUtc(new Date(Date.UTC(y, m - 2, 1))), end: fromUtc(new Date(Date.UTC(y, m - 1, 0))) };
    case 'this_year':
      return { start: `${y}-01-01`, end: today };
  }
}
