import { describe, expect, it } from 'vitest';
import { monthDays, monthGrid, shiftMonth } from './calendar-days';

describe('vehicle calendar days', () => {
  it('lays a month out Monday to Sunday with the neighbouring days empty', () => {
    // 1 April 2041 is a Monday; 1 September 2041 a Sunday
    const april = monthGrid('2041-04');
    expect(april[0]).toEqual([
      '2041-04-01',
      '2041-04-02',
      '2041-04-03',
      '2041-04-04',
      '2041-04-05',
      '2041-04-06',
      '2041-04-07',
    ]);
    expect(april.at(-1)).toEqual(['2041-04-29', '2041-04-30', null, null, null, null, null]);
    expect(april.flat().filter(Boolean)).toHaveLength(30);
    const september = monthGrid('2041-09');
    expect(september[0]).toEqual([null, null, null, null, null, null, '2041-09-01']);
    expect(monthGrid('2040-02').flat().filter(Boolean)).toHaveLength(29);
  });

  it('marks booked and blocked days, clipped to the month', () => {
    const days = monthDays('2041-04', {
      bookings: [{ reference: 'RB-1', from: '2041-03-30', to: '2041-04-02' }],
      blocks: [{ id: 7, from: '2041-04-29', to: '2041-05-03', reason: 'own_use' }],
    });
    expect(days.size).toBe(30);
    expect(days.get('2041-04-01')).toEqual({ date: '2041-04-01', state: 'booked', what: ['RB-1'] });
    expect(days.get('2041-04-02')?.state).toBe('booked');
    expect(days.get('2041-04-03')).toEqual({ date: '2041-04-03', state: 'free', what: [] });
    expect(days.get('2041-04-29')).toEqual({ date: '2041-04-29', state: 'blocked', what: ['Own use'] });
    expect(days.get('2041-04-30')?.state).toBe('blocked');
    expect(days.has('2041-05-01')).toBe(false);
  });

  it('moves across years', () => {
    expect(shiftMonth('2041-01', -1)).toBe('2040-12');
    expect(shiftMonth('2041-12', 1)).toBe('2042-01');
    expect(shiftMonth('2041-06', 0)).toBe('2041-06');
  });
});
