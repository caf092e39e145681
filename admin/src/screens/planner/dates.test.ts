import { describe, expect, it } from 'vitest';
import {
  columnOf,
  dateIn,
  shortDateTime,
  dayCount,
  dayHeading,
  dayStarts,
  daysBetween,
  hoursInDay,
  mondayOf,
  offsetAt,
  periodLabel,
  shiftAnchor,
  startOfDay,
  windowOf,
  windowTitle,
} from './dates';
import { layoutRow } from './layout';

const H = 3_600_000;
const at = (iso: string) => Date.parse(iso);

describe('planner windows (calendar days)', () => {
  it('week: Monday to Sunday around any day; previous and next move by 7 days', () => {
    expect(mondayOf('2027-03-28')).toBe('2027-03-22'); // a Sunday
    expect(mondayOf('2027-03-22')).toBe('2027-03-22');
    expect(windowOf('week', '2027-03-25')).toEqual({ from: '2027-03-22', to: '2027-03-28' });
    expect(windowOf('week', '2026-12-31')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(shiftAnchor('week', '2027-03-25', 1)).toBe('2027-03-29');
    expect(shiftAnchor('week', '2027-03-25', -1)).toBe('2027-03-15');
  });

  it('month: the calendar month, leap February included; previous and next land on the 1st', () => {
    expect(windowOf('month', '2028-02-14')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(windowOf('month', '2027-02-14')).toEqual({ from: '2027-02-01', to: '2027-02-28' });
    expect(windowOf('month', '2027-12-31')).toEqual({ from: '2027-12-01', to: '2027-12-31' });
    expect(shiftAnchor('month', '2027-01-31', 1)).toBe('2027-02-01');
    expect(shiftAnchor('month', '2027-01-31', -1)).toBe('2026-12-01');
    expect(dayCount('2027-03-01', '2027-03-31')).toBe(31);
    expect(daysBetween('2027-03-27', '2027-03-29')).toEqual(['2027-03-27', '2027-03-28', '2027-03-29']);
  });

  it('titles and headings come from the calendar date, not the browser zone', () => {
    expect(windowTitle('week', '2027-03-22', '2027-03-28')).toBe('22–28 March 2027');
    expect(windowTitle('week', '2027-03-29', '2027-04-04')).toBe('29 March – 4 April 2027');
    expect(windowTitle('week', '2026-12-28', '2027-01-03')).toBe('28 December 2026 – 3 January 2027');
    expect(windowTitle('month', '2027-03-01', '2027-03-31')).toBe('March 2027');
    expect(dayHeading('2027-03-28')).toEqual({ weekday: 'Sun', day: '28', long: 'Sunday, 28 March 2027' });
  });
});

describe('days in the store time zone across DST (Europe/Berlin)', () => {
  const tz = 'Europe/Berlin';
  it('spring forward: 28 March 2027 lasts 23 hours, 31 October 2027 lasts 25', () => {
    expect(startOfDay('2027-03-28', tz)).toBe(at('2027-03-27T23:00:00Z'));
    expect(startOfDay('2027-03-29', tz)).toBe(at('2027-03-28T22:00:00Z'));
    expect(hoursInDay('2027-03-27', tz)).toBe(24);
    expect(hoursInDay('2027-03-28', tz)).toBe(23);
    expect(hoursInDay('2027-10-31', tz)).toBe(25);
    expect(offsetAt(tz, at('2027-03-28T00:59:59Z'))).toBe(1 * H);
    expect(offsetAt(tz, at('2027-03-28T01:00:00Z'))).toBe(2 * H);
  });

  it('the week holding the change still has 7 columns; an instant lands at its local hour inside its day', () => {
    const days = daysBetween(...(Object.values(windowOf('week', '2027-03-28')) as [string, string]));
    expect(days).toHaveLength(7);
    const starts = dayStarts(days, tz);
    expect(starts).toHaveLength(8);
    expect(starts[7]! - starts[0]!).toBe((7 * 24 - 1) * H);
    // noon local on the 23-hour Sunday (10:00Z, CEST) is 13/23 of the way into the 7th column (6 = Sunday)
    expect(columnOf(at('2027-03-28T10:00:00Z'), starts)).toBeCloseTo(6 + 11 / 23, 10);
    // local midnight Monday → exactly column 7 (the end), never 6.96 as "7 × 24 h" would give
    expect(columnOf(at('2027-03-28T22:00:00Z'), starts)).toBe(7);
    // clamped outside
    expect(columnOf(at('2027-03-01T00:00:00Z'), starts)).toBe(0);
    expect(columnOf(at('2027-04-30T00:00:00Z'), starts)).toBe(7);
    // a booking's dates: 23:30 local on Saturday is still Saturday, 00:30 on Sunday is Sunday
    expect(dateIn(at('2027-03-27T22:30:00Z'), tz)).toBe('2027-03-27');
    expect(dateIn(at('2027-03-27T23:30:00Z'), tz)).toBe('2027-03-28');
  });

  it('fall back: the 25-hour day places 12:00 local halfway-plus', () => {
    const starts = dayStarts(['2027-10-31'], tz);
    expect(starts).toEqual([at('2027-10-30T22:00:00Z'), at('2027-10-31T23:00:00Z')]);
    expect(columnOf(at('2027-10-31T11:00:00Z'), starts)).toBeCloseTo(13 / 25, 10); // 12:00 CET = 13 hours in
  });

  it('a hold deadline in few characters, in store-local time', () => {
    const now = at('2027-03-28T09:00:00Z');
    expect(shortDateTime(at('2027-03-28T12:30:00Z'), tz, now)).toBe('14:30'); // CEST
    expect(shortDateTime(at('2027-03-27T22:30:00Z'), tz, now)).toBe('27 Mar 23:30'); // CET, the day before
    expect(shortDateTime(at('2027-03-28T22:30:00Z'), tz, now)).toBe('29 Mar 00:30');
  });

  it('a period label is in store-local dates', () => {
    expect(periodLabel(at('2027-06-03T08:00:00Z'), at('2027-06-05T08:00:00Z'), tz)).toBe('3–5 June');
    expect(periodLabel(at('2027-05-30T08:00:00Z'), at('2027-06-02T08:00:00Z'), tz)).toBe('30 May – 2 June');
    expect(periodLabel(at('2026-12-30T08:00:00Z'), at('2027-01-02T08:00:00Z'), tz)).toBe('30 Dec 2026 – 2 Jan 2027');
    // 22:30Z on 5 June is already 6 June in Berlin
    expect(periodLabel(at('2027-06-03T08:00:00Z'), at('2027-06-05T22:30:00Z'), tz)).toBe('3–6 June');
    expect(periodLabel(at('2027-06-03T08:00:00Z'), at('2027-06-03T12:00:00Z'), tz)).toBe('3 June');
  });
});

describe('Europe/Istanbul (no DST since 2016: UTC+3 all year)', () => {
  const tz = 'Europe/Istanbul';
  it('every day of 2027 lasts 24 hours; days start at 21:00Z the day before', () => {
    const days = daysBetween('2027-01-01', '2027-12-31');
    expect(days.filter((d) => hoursInDay(d, tz) !== 24)).toEqual([]);
    expect(startOfDay('2027-03-28', tz)).toBe(at('2027-03-27T21:00:00Z'));
    expect(startOfDay('2027-10-31', tz)).toBe(at('2027-10-30T21:00:00Z'));
  });
  it('the last change it had: 2016-03-27 (23 h); 2016-10-30 was cancelled when the zone stayed on UTC+3', () => {
    expect(hoursInDay('2016-03-27', tz)).toBe(23);
    expect(hoursInDay('2016-10-30', tz)).toBe(24);
  });
});

describe('bars and lanes', () => {
  const tz = 'Europe/Berlin';
  const starts = dayStarts(daysBetween('2027-03-27', '2027-03-29'), tz);
  const b = (id: number, from: string, to: string, buffer = 60) => ({
    id,
    vehicle_id: 1,
    pickup_at: from,
    return_at: to,
    buffer_minutes: buffer,
  });

  it('a booking over the DST night: columns at its local hours; the buffer on both sides', () => {
    const { bars, lanes } = layoutRow([b(1, '2027-03-27T09:00:00Z', '2027-03-28T09:00:00Z')], starts);
    expect(lanes).toBe(1);
    const [bar] = bars;
    expect(bar!.start).toBeCloseTo(10 / 24, 10); // 10:00 CET
    expect(bar!.end).toBeCloseTo(1 + 10 / 23, 10); // 11:00 CEST on the 23-hour day: 10 hours in
    expect(bar!.bufferStart).toBeCloseTo(9 / 24, 10);
    expect(bar!.bufferEnd).toBeCloseTo(1 + 11 / 23, 10);
    expect([bar!.clippedStart, bar!.clippedEnd]).toEqual([false, false]);
  });

  it('overlapping bookings go to separate lanes; bookings a full buffer apart share one', () => {
    const { bars, lanes } = layoutRow(
      [
        b(3, '2027-03-28T12:00:00Z', '2027-03-29T10:00:00Z'), // 2 h after #1 ends: a 60-minute buffer each side fits
        b(1, '2027-03-27T10:00:00Z', '2027-03-28T10:00:00Z'),
        b(2, '2027-03-27T12:00:00Z', '2027-03-27T15:00:00Z'), // overlaps #1
      ],
      starts,
    );
    expect(bars.map((x) => [x.booking.id, x.lane])).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
    ]);
    expect(lanes).toBe(2);
  });

  it('clipped at the window edges', () => {
    const { bars } = layoutRow([b(1, '2027-03-20T10:00:00Z', '2027-04-20T10:00:00Z')], starts);
    expect([bars[0]!.start, bars[0]!.end, bars[0]!.clippedStart, bars[0]!.clippedEnd]).toEqual([0, 3, true, true]);
  });
});
