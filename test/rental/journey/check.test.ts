import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { location, rawBooking, rule, vehicle } from '../helpers.js';

export const V2 = '/wp-json/rova-rental/v2';

describe('POST /booking/check (JSON Schema enforced) and GET /schemas/booking-check.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    await rule(t, { name: 'VAT', kind: 'tax', percent: '20' });
    await rule(t, { name: 'Child seat', kind: 'addon', code: 'child_seat', amount: '5.00', charge: 'per_day' });
  }, 240_000);
  afterAll(async () => t?.close());

  const check = (payload: unknown) =>
    t.inject({ method: 'POST', url: `${V2}/booking/check`, payload: payload as object });

  it('publishes the schema it enforces (additionalProperties:false, formats)', async () => {
    const r = await t.inject({ method: 'GET', url: `${V2}/schemas/booking-check.json` });
    expect(r.statusCode).toBe(200);
    const s = r.json();
    expect(s).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['vehicle_id', 'pickup_date', 'return_date'],
    });
    expect(s.properties.pickup_date).toMatchObject({ type: 'string', format: 'date' });
    expect(s.$id).toMatch(/\/wp-json\/rova-rental\/v2\/schemas\/booking-check\.json$/);
  });

  it('available: full breakdown (rental, add-ons, tax, deposit) in the v1 availability shape', async () => {
    const v = await vehicle(t, { price_per_day: '40.00', deposit_percent: '25' });
    const r = await check({
      vehicle_id: v,
      pickup_date: '2031-06-02',
      return_date: '2031-06-05',
      addons: ['child_seat'],
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ success: true, message: 'The vehicle is available.' });
    expect(r.json().data).toMatchObject({
      available: true,
      vehicle_id: v,
      days: 3,
      price_per_day: 40,
      net_price: 135,
      tax: 27,
      total: 162,
      deposit: 40.5,
      remaining: 121.5,
      currency: 'USD',
    });
    expect(r.json().data.breakdown).toMatchObject({
      base: 120,
      addons_total: 15,
      addons: [{ code: 'child_seat', total: 15 }],
    });
    expect(r.json().data.alternatives).toBeUndefined();
  });

  it('unavailable: reason and up to 3 free alternatives of the same category, cheapest first', async () => {
    const cat = `cat${Date.now()}`;
    const v = await vehicle(t, { category: cat, price_per_day: '50.00' });
    const others = [];
    for (const price of ['70.00', '60.00', '65.00', '55.00'])
      others.push(await vehicle(t, { category: cat, price_per_day: price }));
    await rawBooking(t, v, '2031-07-01T10:00:00Z', '2031-07-05T10:00:00Z', 'confirmed');
    await rawBooking(t, others[3]!, '2031-07-01T10:00:00Z', '2031-07-05T10:00:00Z', 'confirmed');
    await vehicle(t, { category: cat, price_per_day: '10.00', status: 'maintenance' });
    const r = await check({ vehicle_id: v, pickup_date: '2031-07-02', return_date: '2031-07-03' });
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d).toMatchObject({ available: false, reason: 'booked' });
    expect(d.alternatives.map((a: { vehicle_id: number }) => a.vehicle_id)).toEqual([others[1], others[2], others[0]]);
    expect(d.alternatives[0]).toMatchObject({ price_per_day: 60, total: 72, currency: 'USD', category: cat });
  });

  it.each([
    ['unknown property', { extra: 1 }, 'extra'],
    ['wrong date format', { pickup_date: '2031-13-01' }, 'pickup_date'],
    ['impossible date', { return_date: '2031-02-30' }, 'return_date'],
    ['wrong time format', { pickup_time: '9am' }, 'pickup_time'],
    ['missing field', { vehicle_id: undefined }, 'vehicle_id'],
    ['wrong type', { vehicle_id: 'car' }, 'vehicle_id'],
    ['bad add-on code', { addons: ['a b'] }, 'addons'],
  ])('%s → 400 INVALID_PARAMS naming the field', async (_n, patch, field) => {
    const v = await vehicle(t);
    const body: Record<string, unknown> = {
      vehicle_id: v,
      pickup_date: '2031-08-01',
      return_date: '2031-08-02',
      ...patch,
    };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    const r = await check(body);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    expect(r.json().message).toContain(field);
    expect(r.json().details.params).toHaveProperty(field);
  });

  it('unknown vehicle 404, unknown location 400, reversed dates 400 INVALID_DATE_RANGE, unknown add-on 400', async () => {
    const v = await vehicle(t);
    expect(
      (await check({ vehicle_id: 9_999_999, pickup_date: '2031-08-01', return_date: '2031-08-02' })).json().error_code,
    ).toBe('VEHICLE_NOT_FOUND');
    const loc = await check({
      vehicle_id: v,
      pickup_date: '2031-08-01',
      return_date: '2031-08-02',
      return_location_id: 9_999_999,
    });
    expect(loc.statusCode).toBe(400);
    expect(loc.json().details.field).toBe('return_location_id');
    expect(
      (await check({ vehicle_id: v, pickup_date: '2031-08-03', return_date: '2031-08-02' })).json().error_code,
    ).toBe('INVALID_DATE_RANGE');
    expect(
      (await check({ vehicle_id: v, pickup_date: '2031-08-01', return_date: '2031-08-02', addons: ['nope'] }))
        .statusCode,
    ).toBe(400);
    const l = await location(t);
    expect(
      (
        await check({
          vehicle_id: v,
          pickup_date: '2031-08-01',
          return_date: '2031-08-02',
          pickup_location_id: l,
          return_location_id: l,
        })
      ).json().data,
    ).toMatchObject({ available: true, pickup_location_id: l, return_location_id: l });
  });
});
