import { describe, expect, it } from 'vitest';
import { addDays, presetRange, todayIn } from './dates';

describe('report date presets in the store time zone', () => {
  it('today is the store zone’s calendar date, not UTC’s or the browser’s', () => {
    // 22:30 UTC on 29 March 2026 is already 00:30 on the 30th in Berlin (CEST, +2 since 02:00 that day).
    expect(todayIn('Europe/Berlin', new Date('2026-03-29T22:30:00Z'))).toBe('2026-03-30');
    expect(todayIn('UTC', new Date('2026-03-29T22:30:00Z'))).toBe('2026-03-29');
    expect(todayIn('America/New_York', new Date('2026-03-30T03:59:00Z'))).toBe('2026-03-29');
  });

  it('7/30/90 days span whole calendar days across the spring-forward change (23-hour day)', () => {
    const now = new Date('2026-03-29T22:30:00Z'); // Berlin 2026-03-30 00:30, the day after the change
    expect(presetRange('7d', now, 'Europe/Berlin')).toEqual({ start: '2026-03-24', end: '2026-03-30' });
    expect(presetRange('30d', now, 'Europe/Berlin')).toEqual({ start: '2026-03-01', end: '2026-03-30' });
    expect(presetRange('90d', now, 'Europe/Berlin')).toEqual({ start: '2025-12-31', end: '2026-03-30' });
  });

  it('across the fall-back change (25-hour day) in New York', () => {
    // 04:30 UTC on 1 Nov 2026 = 00:30 EDT; clocks go back at 06:00 UTC.
    const now = new Date('2026-11-01T04:30:00Z');
    expect(presetRange('7d', now, 'America/New_York')).toEqual({ start: '2026-10-26', end: '2026-11-01' });
    expect(presetRange('this_month', now, 'America/New_York')).toEqual({ start: '2026-11-01', end: '2026-11-01' });
    expect(presetRange('last_month', now, 'America/New_York')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    // The same instant in UTC is still 1 November, in Honolulu 31 October.
    expect(presetRange('this_month', now, 'Pacific/Honolulu')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
  });

  it('this month / last month / this year at a month and year boundary', () => {
    // 23:30 UTC on 28 Feb 2026 is 1 March 00:30 in Berlin: "last month" is February, not January.
    const now = new Date('2026-02-28T23:30:00Z');
    expect(presetRange('this_month', now, 'Europe/Berlin')).toEqual({ start: '2026-03-01', end: '2026-03-01' });
    expect(presetRange('last_month', now, 'Europe/Berlin')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(presetRange('last_month', new Date('2026-01-15T12:00:00Z'), 'UTC')).toEqual({
      start: '2025-12-01',
      end: '2025-12-31',
    });
    expect(presetRange('this_year', new Date('2025-12-31T23:30:00Z'), 'Asia/Tokyo')).toEqual({
      start: '2026-01-01',
      end: '2026-01-01',
    });
    expect(presetRange('last_month', new Date('2024-03-10T12:00:00Z'), 'UTC')).toEqual({
      start: '2024-02-01',
      end: '2024-02-29',
    });
  });

  it('addDays is calendar arithmetic', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });
});
