import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { location, rule, V1, vehicle } from '../helpers.js';

const V2 = '/wp-json/rova-rental/v2';

// Issue 36.1: a rental returned at another location than its pick-up pays the one-way fee: its own line of the price
// (a `one_way` pricing rule, taxed with the rest), of the order and of the booking, kept when the booking moves.
describe('the one-way fee', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let here: number;
  let there: number;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
    await rule(t, { name: 'VAT', kind: 'tax', percent: '10' });
    await rule(t, { name: 'One-way fee', kind: 'one_way', amount: '40.00' });
    await rule(t, { name: 'One-way fee (vans)', kind: 'one_way', scope: 'category', category: 'van', amount: '90.00' });
    here = await location(t);
    there = await location(t);
  }, 240_000);
  afterAll(async () => t?.close());

  const check = async (payload: Record<string, unknown>) => {
    const r = await t.inject({ method: 'POST', url: `${V2}/booking/check`, payload });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data;
  };
  const period = { pickup_date: '2031-06-02', return_date: '2031-06-05' };

  it('returned elsewhere: one line of the breakdown, in the net and taxed; returned where it was picked up: none', async () => {
    const v = await vehicle(t, { price_per_day: '50.00', location_id: here });
    const away = await check({ vehicle_id: v, ...period, return_location_id: there });
    expect(away).toMatchObject({ available: true, net_price: 190, tax: 19, total: 209 });
    expect(away.breakdown).toMatchObject({ rental_net: 150, addons_total: 0, one_way_fee: 40 });
    expect(
      away.breakdown.rules
        .filter((r: { kind: string }) => r.kind === 'one_way')
        .map((r: { name: string; amount: number }) => [r.name, r.amount]),
    ).toEqual([['One-way fee', 40]]);
    for (const same of [{}, { return_location_id: here }, { pickup_location_id: here, return_location_id: here }]) {
      const d = await check({ vehicle_id: v, ...period, ...same });
      expect(d).toMatchObject({ net_price: 150, total: 165 });
      expect(d.breakdown.one_way_fee).toBe(0);
      expect(d.breakdown.rules.some((r: { kind: string }) => r.kind === 'one_way')).toBe(false);
    }
    // picked up elsewhere than the vehicle's own place and returned there is one-way too
    expect(
      (await check({ vehicle_id: v, ...period, pickup_location_id: there, return_location_id: here })).breakdown
        .one_way_fee,
    ).toBe(40);
  });

  it('the most specific rule wins: a category’s fee over the store’s', async () => {
    const van = await vehicle(t, { price_per_day: '80.00', category: 'van', location_id: here });
    const d = await check({ vehicle_id: van, ...period, return_location_id: there });
    expect(d.breakdown.one_way_fee).toBe(90);
    expect(d.total).toBe(363); // (240 + 90) × 1.1
  });

  it('a customer’s booking keeps the fee as its own order line; moved by the operator, it keeps it', async () => {
    const v = await vehicle(t, { price_per_day: '50.00', location_id: here });
    const key = (await t.userWithKey('customer')).key;
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': key },
      payload: { vehicle_id: v, ...period, return_location_id: there, payment_method: 'offline', payment_plan: 'full' },
    });
    expect(r.statusCode, r.body).toBe(201);
    const b = r.json().data.booking;
    expect(b).toMatchObject({ total: 209, addons_total: 40, return_location_id: there });
    const mine = (
      await t.inject({ method: 'GET', url: `${V2}/my/bookings/${b.id}`, headers: { 'x-rova-api-key': key } })
    ).json().data;
    expect(
      mine.order.lines.map((l: { kind: string; description: string; amount: number }) => [
        l.kind,
        l.description,
        l.amount,
      ]),
    ).toEqual([
      ['rental', 'Rental, 3 day(s)', 150],
      ['fee', 'One-way fee', 40],
      ['tax', 'Tax', 19],
      ['full', 'Full amount due now', 209],
    ]);
    const moved = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${b.id}`,
      headers: admin,
      payload: { pickup_date: '2031-06-09', return_date: '2031-06-13' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ total: 264, addons_total: 40 }); // (200 + 40) × 1.1
  });

  it('a one-way rule needs its amount', async () => {
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/pricing-rules`,
      headers: admin,
      payload: { name: 'No amount', kind: 'one_way', scope: 'global' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      message: 'A one-way fee needs amount (charged once per one-way rental).',
    });
  });
});
