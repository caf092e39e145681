// @integration: a booking's amounts are bounded by its numeric(12,2) columns on PostgreSQL as on PGlite
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { customer, vehicle } from './helpers.js';

// Issue 37 item 7: a price the catalogue accepts (price_per_day up to 1e9) adds up past what a booking's money
// columns hold (numeric(12,2): 9,999,999,999.99) over 10+ days. Check and create answer 400 naming the amount
// instead of "available" and then a 500 (numeric field overflow), and such a booking never joins a shared statement.
const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
let admin: Record<string, string>;
let dear: number;
beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '1000000', RENTAL_PUBLIC_RATE_LIMIT: '1000000' } });
  admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  dear = await vehicle(t, { price_per_day: '1000000000.00' });
}, 240_000);
afterAll(async () => t?.close());

const tooMuch = (amount: string) => ({
  success: false,
  error_code: 'INVALID_PARAMS',
  message: `The booking's total would be ${amount}, more than the largest amount a booking can hold (9999999999.99): choose fewer days or a cheaper vehicle.`,
  details: { field: 'total', amount, max: '9999999999.99' },
});
const eleven = { pickup_date: '2037-03-01', return_date: '2037-03-12' };

describe('booking amounts fit their columns', () => {
  it('check (v1 availability, v2 booking/check) → 400 naming the total; 9 days of the same vehicle still fit', async () => {
    const v1 = await t.inject({ method: 'POST', url: `${V1}/availability`, payload: { vehicle_id: dear, ...eleven } });
    expect(v1.statusCode, v1.body).toBe(400);
    expect(v1.json()).toMatchObject(tooMuch('11000000000.00'));
    const v2 = await t.inject({ method: 'POST', url: `${V2}/booking/check`, payload: { vehicle_id: dear, ...eleven } });
    expect(v2.statusCode, v2.body).toBe(400);
    expect(v2.json()).toMatchObject(tooMuch('11000000000.00'));
    const fits = await t.inject({
      method: 'POST',
      url: `${V1}/availability`,
      payload: { vehicle_id: dear, pickup_date: '2037-03-01', return_date: '2037-03-10' },
    });
    expect(fits.statusCode).toBe(200);
    expect(fits.json().data).toMatchObject({ available: true, total: 9000000000 });
  });

  it('create (v1 operator, v2 customer) → 400 naming the total, nothing written; a date change to 11 days → 400, the booking unchanged', async () => {
    const count = async () =>
      (
        await rows<{ n: number }>(
          t.platform.db,
          sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${dear}`,
        )
      )[0]!.n;
    const before = await count();
    const v1 = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: admin,
      payload: { vehicle_id: dear, customer_id: await customer(t), ...eleven },
    });
    expect(v1.statusCode, v1.body).toBe(400);
    expect(v1.json()).toMatchObject(tooMuch('11000000000.00'));
    const key = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    const v2 = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: key,
      payload: { vehicle_id: dear, ...eleven, payment_method: 'offline', payment_plan: 'full' },
    });
    expect(v2.statusCode, v2.body).toBe(400);
    expect(v2.json()).toMatchObject(tooMuch('11000000000.00'));
    expect(await count()).toBe(before);
    const ok = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: admin,
      payload: {
        vehicle_id: dear,
        customer_id: await customer(t),
        pickup_date: '2037-05-01',
        return_date: '2037-05-03',
      },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const longer = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${ok.json().data.id}`,
      headers: admin,
      payload: { return_date: '2037-05-12' },
    });
    expect(longer.statusCode, longer.body).toBe(400);
    expect(longer.json()).toMatchObject(tooMuch('11000000000.00'));
    expect(
      (
        await rows<{ total: string }>(
          t.platform.db,
          sql`SELECT total::text AS total FROM rental_bookings WHERE id = ${ok.json().data.id}`,
        )
      )[0]!.total,
    ).toBe('2000000000.00');
  });

  it('customers booking at once, one of them past the bound → that one 400, every other booking written with its order and payment', async () => {
    const cars = [await vehicle(t), await vehicle(t), await vehicle(t), await vehicle(t), await vehicle(t)];
    const keys = await Promise.all(
      [...cars, dear].map(async () => ({ 'x-rova-api-key': (await t.userWithKey('customer')).key })),
    );
    const answers = await Promise.all(
      [...cars, dear].map((v, i) =>
        t.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: keys[i]!,
          payload: {
            vehicle_id: v,
            ...(v === dear ? eleven : { pickup_date: '2037-04-01', return_date: '2037-04-03' }),
            payment_method: 'offline',
            payment_plan: 'full',
          },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 400]);
    expect(answers[5]!.json()).toMatchObject(tooMuch('11000000000.00'));
    for (const a of answers.slice(0, 5)) {
      const id = a.json().data.booking.id as number;
      const written = await rows<{ orders: number; payments: number }>(
        t.platform.db,
        sql`SELECT (SELECT count(*)::int FROM rental_orders WHERE booking_id = ${id}) AS orders, (SELECT count(*)::int FROM rental_payments WHERE booking_id = ${id}) AS payments`,
      );
      expect(written).toEqual([{ orders: 1, payments: 1 }]);
    }
  });
});
