// The vehicle calendar's month (store-local calendar days, YYYY-MM-DD): the grid and what each day holds.
import { addDays } from '../../lib/dates';

export type DayState = 'free' | 'booked' | 'blocked';

export interface MonthData {
  bookings: readonly { reference: string; from: string; to: string }[];
  blocks: readonly { id: number; from: string; to: string; reason: 'maintenance' | 'own_use' }[];
}

export interface Day {
  date: string;
  state: DayState;
  /** What takes the day, in words (the booking references, the block's reason). */
  what: string[];
}

export const REASON_WORDS: Record<'maintenance' | 'own_use', string> = {
  maintenance: 'Maintenance',
  own_use: 'Own use',
};

/** The month (`YYYY-MM`) as weeks Monday → Sunday; days of the neighbouring months are null. */
export function monthGrid(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const monday = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7;
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: monday }, () => null);
  for (let d = first; d.startsWith(month); d = addDays(d, 1)) {
    week.push(d);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}

/** Each day of the month with its state: a block wins over a booking (it cannot overlap one, but is told first). */
export function monthDays(month: string, data: MonthData): Map<string, Day> {
  const out = new Map<string, Day>();
  for (const week of monthGrid(month))
    for (const date of week) if (date) out.set(date, { date, state: 'free', what: [] });
  const mark = (from: string, to: string, state: DayState, what: string) => {
    for (let d = from; d <= to; d = addDays(d, 1)) {
      const day = out.get(d);
      if (!day) continue;
      if (state === 'blocked' || day.state === 'free') day.state = state;
      day.what.push(what);
    }
  };
  for (const b of data.bookings) mark(b.from, b.to, 'booked', b.reference);
  for (const b of data.blocks) mark(b.from, b.to, 'blocked', REASON_WORDS[b.reason]);
  return out;
}

/** The month before or after `month` (`YYYY-MM`). */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const n = y * 12 + (m - 1) + by;
  return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
}

/** "Wed 10 Apr 2041" for a calendar day (formatted in UTC: the day is already the store's). */
export function dayLabel(date: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}
