// @integration: availability is an overlap query over time ranges in SQL
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { avail, location, rawBooking, rule, vehicle } from './helpers.js';
import type { BookingStatus } from '../../src/modules/rental/bookings/status.js';

async function standardRules(t: TestApp): Promise<void> {
  await rule(t, {
    name: 'Summer',
    kind: 'season',
    start_date: '2000-06-15',
    end_date: '2000-09-15',
    recurring: true,
    multiplier: '1.25',
  });
  await rule(t, { name: 'Weekend', kind: 'weekend', multiplier: '1.1' });
  await rule(t, { name: 'Week', kind: 'duration', min_days: 7, percent: '-10' });
  await rule(t, { name: 'Child seat', kind: 'addon', code: 'child_seat', amount: '5', charge: 'per_day' });
  await rule(t, { name: 'Extra driver', kind: 'addon', code: 'extra_driver', amount: '25', charge: 'per_booking' });
  await rule(t, { name: 'VAT', kind: 'tax', percent: '18' });
  await rule(t, { name: 'Deposit', kind: 'deposit', percent: '20' });
}

describe('POST /availability (UTC store)', () => {
  let t: TestApp;
  let vid: number;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    await standardRules(t);
    vid = await vehicle(t, { price_per_day: '100.00' });
  });
  afterAll(async () => t?.close());

  it('weekend arithmetic to the cent: Fri→Mon = 100 + 110 + 110', async () => {
    const r = await avail(t, { vehicle_id: vid, pickup_date: '2030-03-08', return_date: '2030-03-11' });
    expect(r.statusCode).toBe(200);
    const b = r.json();
    expect(b.success).toBe(true);
    expect(b.data).toMatchObject({
      available: true,
      vehicle_id: vid,
      days: 3,
      price_per_day: 100,
      net_price: 320,
      currency: 'USD',
      tax_rate: 18,
      tax: 57.6,
      total: 377.6,
      deposit_percent: 20,
      deposit: 75.52,
      remaining: 302.08,
      pickup: { date: '2030-03-08', time: '10:00', at: '2030-03-08T10:00:00.000Z' },
    });
    expect(b.data.breakdown).toMatchObject({
      base: 300,
      weekend_days: 2,
      weekday_days: 1,
      weekend_adjustment: 20,
      season_adjustment: 0,
      duration_discount: 0,
    });
  });

  it('season × weekend, 7-day tier −10 %, add-ons, tax and deposit', async () => {
    const r = await avail(t, {
      vehicle_id: vid,
      pickup_date: '2030-07-01',
      return_date: '2030-07-08',
      addons: ['child_seat', 'extra_driver'],
    });
    const d = r.json().data;
    expect(d.days).toBe(7);
    expect(d.breakdown).toMatchObject({
      base: 700,
      season_adjustment: 175,
      weekend_adjustment: 25,
      rental_subtotal: 900,
      duration_discount: -90,
      rental_net: 810,
      addons_total: 60,
    });
    expect(d).toMatchObject({ net_price: 870, tax: 156.6, total: 1026.6, deposit: 205.32, remaining: 821.28 });
    expect(d.breakdown.rules.map((x: { kind: string }) => x.kind).sort()).toEqual([
      'addon',
      'addon',
      'deposit',
      'duration',
      'season',
      'tax',
      'weekend',
    ]);
  });

  it('each rule that changed the price is a line with the days it applied to, and the lines add up to the total', async () => {
    const d = (
      await avail(t, {
        vehicle_id: vid,
        pickup_date: '2030-07-01',
        return_date: '2030-07-08',
        addons: ['child_seat', 'extra_driver'],
      })
    ).json().data;
    const byName = Object.fromEntries(
      d.breakdown.rules.map((x: { name: string; amount: number; days: number | null }) => [x.name, [x.amount, x.days]]),
    );
    expect(byName).toEqual({
      Summer: [175, 7],
      Weekend: [25, 2],
      Week: [-90, 7],
      'Child seat': [35, 7],
      'Extra driver': [25, null],
      VAT: [156.6, null],
      Deposit: [205.32, null],
    });
  });

  it('two seasons whose parts round apart: each season line is rounded on its own and the adjustment is their sum', async () => {
    // 10.00 × 0.0004 = 0.004 a day under each season: each line rounds to 0.00, so the adjustment is 0.00 too
    // (rounding the sum, 0.008, would add a cent no line shows)
    const v2 = await vehicle(t, { price_per_day: '10.00' });
    for (const [name, day] of [
      ['Fair', '2031-04-01'],
      ['Festival', '2031-04-02'],
    ] as const)
      await rule(t, {
        name,
        kind: 'season',
        scope: 'vehicle',
        vehicle_id: v2,
        start_date: day,
        end_date: day,
        recurring: false,
        multiplier: '1.0004',
      });
    const d = (await avail(t, { vehicle_id: v2, pickup_date: '2031-04-01', return_date: '2031-04-03' })).json().data;
    const seasons = d.breakdown.rules.filter((x: { kind: string }) => x.kind === 'season');
    expect(seasons.map((x: { name: string; amount: number; days: number }) => [x.name, x.amount, x.days])).toEqual([
      ['Fair', 0, 1],
      ['Festival', 0, 1],
    ]);
    expect(d.breakdown.season_adjustment).toBe(0);
    const cents = (x: number) => Math.round(x * 100);
    const lines = d.breakdown.rules
      .filter((x: { kind: string }) => ['season', 'weekend', 'duration'].includes(x.kind))
      .reduce((sum: number, x: { amount: number }) => sum + cents(x.amount), cents(d.breakdown.base));
    expect(lines).toBe(cents(d.breakdown.rental_net));
    expect(lines + cents(d.breakdown.addons_total) + cents(d.tax)).toBe(cents(d.total));
  });

  it('unknown add-on → 400 INVALID_PARAMS', async () => {
    const r = await avail(t, {
      vehicle_id: vid,
      pickup_date: '2030-07-01',
      return_date: '2030-07-02',
      addons: ['jetpack'],
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
  });

  it('days rule: 24 h + 60 min grace = 1 day, + 61 min = 2 days', async () => {
    const a = await avail(t, {
      vehicle_id: vid,
      pickup_date: '2030-03-05',
      pickup_time: '10:00',
      return_date: '2030-03-06',
      return_time: '11:00',
    });
    expect(a.json().data.days).toBe(1);
    const b = await avail(t, {
      vehicle_id: vid,
      pickup_date: '2030-03-05',
      pickup_time: '10:00',
      return_date: '2030-03-06',
      return_time: '11:01',
    });
    expect(b.json().data.days).toBe(2);
    const c = await avail(t, {
      vehicle_id: vid,
      pickup_date: '2030-03-05',
      pickup_time: '10:00',
      return_date: '2030-03-05',
      return_time: '12:00',
    });
    expect(c.json().data.days).toBe(1);
  });

  it('overlap with a 60-minute buffer on both sides (strict)', async () => {
    const v = await vehicle(t);
    await rawBooking(t, v, '2030-04-10T10:00:00Z', '2030-04-12T10:00:00Z', 'confirmed');
    const q = async (pd: string, pt: string, rd: string, rt: string) =>
      (await avail(t, { vehicle_id: v, pickup_date: pd, pickup_time: pt, return_date: rd, return_time: rt })).json()
        .data;
    expect(await q('2030-04-12', '10:30', '2030-04-14', '10:00')).toMatchObject({ available: false, reason: 'booked' });
    expect((await q('2030-04-12', '11:00', '2030-04-14', '10:00')).available).toBe(true);
    expect(await q('2030-04-08', '10:00', '2030-04-10', '09:30')).toMatchObject({ available: false, reason: 'booked' });
    expect((await q('2030-04-08', '10:00', '2030-04-10', '09:00')).available).toBe(true);
    expect(await q('2030-04-10', '12:00', '2030-04-11', '12:00')).toMatchObject({ available: false, reason: 'booked' });
  });

  const future = new Date(Date.now() + 3_600_000).toISOString();
  const past = new Date(Date.now() - 60_000).toISOString();
  it.each([
    ['confirmed', null, false],
    ['in_progress', null, false],
    ['pending_payment', future, false],
    ['pending', future, false],
    ['pending_payment', past, true],
    ['pending', past, true],
    ['draft', null, true],
    ['cancelled', null, true],
    ['refunded', null, true],
    ['no_show', null, true],
    ['completed', null, true],
  ])('a %s booking (deadline %s) → available %s', async (status, deadline, free) => {
    const v = await vehicle(t);
    await rawBooking(t, v, '2030-05-10T10:00:00Z', '2030-05-12T10:00:00Z', status as BookingStatus, {
      payment_deadline: deadline,
    });
    const d = (await avail(t, { vehicle_id: v, pickup_date: '2030-05-11', return_date: '2030-05-13' })).json().data;
    expect(d.available).toBe(free);
    if (!free) expect(d.reason).toBe('booked');
  });

  it('blocked date, maintenance, inactive, duration, min notice, opening hours', async () => {
    const blocked = await vehicle(t, { blocked_dates: ['2030-06-02'] });
    expect(
      (await avail(t, { vehicle_id: blocked, pickup_date: '2030-06-01', return_date: '2030-06-03' })).json().data,
    ).toMatchObject({ available: false, reason: 'blocked_date' });
    expect(
      (await avail(t, { vehicle_id: blocked, pickup_date: '2030-06-03', return_date: '2030-06-04' })).json().data
        .available,
    ).toBe(true);
    const m = await vehicle(t, { status: 'maintenance' });
    expect(
      (await avail(t, { vehicle_id: m, pickup_date: '2030-06-01', return_date: '2030-06-03' })).json().data,
    ).toMatchObject({ available: false, reason: 'maintenance' });
    const i = await vehicle(t, { status: 'inactive' });
    expect(
      (await avail(t, { vehicle_id: i, pickup_date: '2030-06-01', return_date: '2030-06-03' })).json().data,
    ).toMatchObject({ available: false, reason: 'inactive' });
    expect(
      (await avail(t, { vehicle_id: vid, pickup_date: '2030-06-01', return_date: '2030-07-02' })).json().data,
    ).toMatchObject({ available: false, reason: 'duration' });
    expect(
      (await avail(t, { vehicle_id: vid, pickup_date: '2020-06-01', return_date: '2020-06-02' })).json().data,
    ).toMatchObject({ available: false, reason: 'min_notice' });
    const loc = await location(t, {
      opening_hours: { mon: { open: '08:00', close: '18:00' }, tue: { open: '08:00', close: '18:00' } },
    });
    const h = await vehicle(t, { location_id: loc });
    // 2030-06-03 is a Monday
    expect(
      (
        await avail(t, { vehicle_id: h, pickup_date: '2030-06-03', pickup_time: '07:00', return_date: '2030-06-04' })
      ).json().data,
    ).toMatchObject({ available: false, reason: 'outside_opening_hours' });
    expect(
      (
        await avail(t, {
          vehicle_id: h,
          pickup_date: '2030-06-03',
          pickup_time: '08:00',
          return_date: '2030-06-04',
          return_time: '18:00',
        })
      ).json().data.available,
    ).toBe(true);
    expect(
      (await avail(t, { vehicle_id: h, pickup_date: '2030-06-05', return_date: '2030-06-06' })).json().data,
    ).toMatchObject({ available: false, reason: 'outside_opening_hours' });
  });

  it('a one-way rental is returned within the return desk hours, not the pick-up desk hours', async () => {
    const weekdays = { open: '08:00', close: '18:00' };
    const desk = await location(t, { opening_hours: { mon: weekdays, tue: weekdays, wed: weekdays } });
    const late = await location(t, { opening_hours: { tue: { open: '18:00', close: '23:00' } } });
    const h = await vehicle(t, { location_id: desk });
    const check = async (ret: number, return_time: string) =>
      (
        await t.inject({
          method: 'POST',
          url: '/wp-json/rova-rental/v2/booking/check',
          payload: {
            vehicle_id: h,
            pickup_location_id: desk,
            return_location_id: ret,
            // Monday 10:00 → Tuesday
            pickup_date: '2030-06-03',
            pickup_time: '10:00',
            return_date: '2030-06-04',
            return_time,
          },
        })
      ).json().data;
    // 21:00 on Tuesday: the pick-up desk is closed, the return desk open
    expect(await check(late, '21:00')).toMatchObject({ available: true });
    expect(await check(desk, '21:00')).toMatchObject({ available: false, reason: 'outside_opening_hours' });
    // 10:00 on Tuesday: the pick-up desk is open, the return desk not yet
    expect(await check(late, '10:00')).toMatchObject({ available: false, reason: 'outside_opening_hours' });
  });

  it('errors: 404 VEHICLE_NOT_FOUND, 400 INVALID_PARAMS, 400 INVALID_DATE_RANGE', async () => {
    const nf = await avail(t, { vehicle_id: 999999, pickup_date: '2030-06-01', return_date: '2030-06-03' });
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toEqual({ success: false, error_code: 'VEHICLE_NOT_FOUND', message: expect.any(String) });
    for (const body of [
      { pickup_date: '2030-06-01', return_date: '2030-06-03' },
      { vehicle_id: vid, pickup_date: '2030-02-30', return_date: '2030-03-03' },
      { vehicle_id: vid, pickup_date: '01/06/2030', return_date: '2030-06-03' },
      { vehicle_id: vid, pickup_date: '2030-06-01', return_date: '2030-06-03', pickup_time: '25:00' },
      { vehicle_id: vid, pickup_date: 20300601, return_date: '2030-06-03' },
      { vehicle_id: 'abc', pickup_date: '2030-06-01', return_date: '2030-06-03' },
    ]) {
      const r = await avail(t, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error_code).toBe('INVALID_PARAMS');
      expect(r.json().success).toBe(false);
    }
    for (const [p, rd] of [
      ['2030-06-03', '2030-06-01'],
      ['2030-06-03', '2030-06-03'],
    ]) {
      const r = await avail(t, { vehicle_id: vid, pickup_date: p, return_date: rd });
      expect(r.statusCode).toBe(400);
      expect(r.json().error_code).toBe('INVALID_DATE_RANGE');
    }
  });

  it("a repeated question gets the kept answer until a booking of that vehicle changes it (not another vehicle's)", async () => {
    const v = await vehicle(t);
    const other = await vehicle(t);
    const body = { vehicle_id: v, pickup_date: '2030-09-02', return_date: '2030-09-04' };
    const first = await avail(t, body);
    expect(first.json().data.available).toBe(true);
    expect((await avail(t, body)).body).toBe(first.body);
    await rawBooking(t, other, '2030-09-03T10:00:00Z', '2030-09-05T10:00:00Z', 'confirmed');
    expect((await avail(t, body)).body).toBe(first.body);
    await rawBooking(t, v, '2030-09-03T10:00:00Z', '2030-09-05T10:00:00Z', 'confirmed');
    expect((await avail(t, body)).json().data).toMatchObject({ available: false, reason: 'booked' });
  });

  it('the clock alone makes a kept answer wrong for less than BOOKING_SEARCH_CACHE_MS (1 s): minimum notice', async () => {
    const v = await vehicle(t);
    const pickup = Date.parse('2031-01-07T10:00:00Z');
    const body = { vehicle_id: v, pickup_date: '2031-01-07', return_date: '2031-01-09' };
    vi.useFakeTimers({ toFake: ['Date'], now: pickup - 300 });
    try {
      expect((await avail(t, body)).json().data.available).toBe(true);
      // the pickup has passed, 400 ms after the answer: the kept answer still stands
      vi.setSystemTime(pickup + 100);
      expect((await avail(t, body)).json().data.available).toBe(true);
      // 1 s after it, it is computed again
      vi.setSystemTime(pickup + 700);
      expect((await avail(t, body)).json().data).toMatchObject({ available: false, reason: 'min_notice' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('pricing rule writes reach the engine (cache invalidated through the bus)', async () => {
    const v = await vehicle(t, { category: 'luxury', price_per_day: '200.00' });
    const before = (await avail(t, { vehicle_id: v, pickup_date: '2030-03-05', return_date: '2030-03-06' })).json().data
      .net_price;
    expect(before).toBe(200);
    const admin = (await t.userWithKey('administrator')).key;
    const r = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-rental/v1/pricing-rules',
      headers: { 'x-rova-api-key': admin },
      payload: {
        name: 'Lux',
        kind: 'season',
        scope: 'category',
        category: 'luxury',
        start_date: '2000-03-01',
        end_date: '2000-03-31',
        multiplier: 1.5,
      },
    });
    expect(r.statusCode).toBe(201);
    expect(
      (await avail(t, { vehicle_id: v, pickup_date: '2030-03-05', return_date: '2030-03-06' })).json().data.net_price,
    ).toBe(300);
  });
});

describe('POST /availability in a non-UTC store timezone', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { STORE_TIMEZONE: 'Pacific/Auckland', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    await standardRules(t);
  });
  afterAll(async () => t?.close());

  it('weekend days are Saturday/Sunday in the store timezone; instants are UTC', async () => {
    const v = await vehicle(t, { price_per_day: '100.00' });
    // Sat 2030-03-09 10:00 NZDT (UTC+13) = Fri 2030-03-08 21:00 UTC: still two weekend days
    const r = await avail(t, { vehicle_id: v, pickup_date: '2030-03-09', return_date: '2030-03-11' });
    const d = r.json().data;
    expect(d.pickup.at).toBe('2030-03-08T21:00:00.000Z');
    expect(d.days).toBe(2);
    expect(d.breakdown.weekend_days).toBe(2);
    expect(d.net_price).toBe(220);
    expect(d.tax).toBe(39.6);
  });
});
