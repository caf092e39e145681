import { describe, expect, it } from 'vitest';
import { earningsByMonth, lastTwelveMonths, monthLabel } from './months';

describe('vendor earnings by month', () => {
  it('the window is the last 12 calendar months, across a year boundary', () => {
    expect(lastTwelveMonths('2026-11-25')).toEqual({ start_date: '2025-12-01', end_date: '2026-11-25' });
    expect(lastTwelveMonths('2026-01-31')).toEqual({ start_date: '2025-02-01', end_date: '2026-01-31' });
    expect(lastTwelveMonths('2026-12-01')).toEqual({ start_date: '2026-01-01', end_date: '2026-12-01' });
  });

  it('sums each month in minor units, every month of the series present, oldest first', () => {
    const daily = [
      { date: '2026-01-30', gross: 0.1, net: 0.1 },
      { date: '2026-01-31', gross: 0.2, net: 0.2 },
      { date: '2025-12-31', gross: 10, net: 8.5 },
      { date: '2026-02-01', gross: 0, net: 0 },
    ];
    expect(earningsByMonth(daily)).toEqual([
      { month: '2025-12', gross: 10, net: 8.5 },
      { month: '2026-01', gross: 0.3, net: 0.3 },
      { month: '2026-02', gross: 0, net: 0 },
    ]);
    expect(earningsByMonth([{ date: '2026-03-01', gross: 1500, net: 1275 }], 0)).toEqual([
      { month: '2026-03', gross: 1500, net: 1275 },
    ]);
  });

  it('labels a month in the locale', () => {
    expect(monthLabel('2026-01', 'en-US')).toBe('Jan 2026');
  });
});
