import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { rows } from '../../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { customer, V1, vehicle } from '../helpers.js';

// Issue 37 item 1: every change of a booking's price goes through repriceBooking. In the API only new dates and (issue
// 35 item 6, the planner's drag) another vehicle change it (PUT /v1/bookings/{id}, tested in reprice.test.ts,
// intents.test.ts, pay-due.test.ts, booking-move.test.ts). A change of add-ons or an operator's own price is not
// offered anywhere: PUT refuses those fields (400, nothing changes), and a transfer moved to another time keeps the
// route's price.
const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '1000000', BOOKING_PAYMENT_PROVIDERS: 'offline' } });
  admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const money = async (id: number) => ({
  booking: (
    await rows<{ vehicle_id: number; total: string; addons_total: string; payment_status: string }>(
      t.platform.db,
      sql`SELECT vehicle_id::int AS vehicle_id, total::text AS total, addons_total::text AS addons_total, payment_status FROM rental_bookings WHERE id = ${id}`,
    )
  )[0],
  payments: await rows<{ amount: string; status: string; refunded_amount: string }>(
    t.platform.db,
    sql`SELECT amount::text AS amount, status, refunded_amount::text AS refunded_amount FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  ),
});

describe('no price change bypasses repriceBooking', () => {
  it('PUT refuses add-ons or a price (400 naming the field): the paid booking and its money stay as they were; another vehicle is re-priced and settled', async () => {
    const customerKey = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    const v = await vehicle(t);
    const other = await vehicle(t, { price_per_day: '150.00' });
    const created = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: customerKey,
      payload: {
        vehicle_id: v,
        pickup_date: '2039-03-01',
        return_date: '2039-03-05',
        payment_method: 'offline',
        payment_plan: 'full',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.booking.id as number;
    const paid = await t.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: admin });
    expect(paid.statusCode).toBe(200);
    const before = await money(id);
    expect(before).toMatchObject({
      booking: { vehicle_id: v, total: '400.00', payment_status: 'paid' },
      payments: [{ amount: '400.00', status: 'succeeded' }],
    });
    for (const [field, value] of [
      ['addons', ['child_seat']],
      ['total', 10],
      ['price_per_day', 1],
      ['net_price', 1],
      ['addons_total', 1],
      ['deposit', 0],
    ] as const) {
      const r = await t.inject({
        method: 'PUT',
        url: `${V1}/bookings/${id}`,
        headers: admin,
        payload: { [field]: value, notes: 'changed?' },
      });
      expect(r.statusCode, `${field}: ${r.body}`).toBe(400);
      expect(r.json()).toMatchObject({
        success: false,
        error_code: 'INVALID_PARAMS',
        message: `Invalid parameter(s): ${field}`,
      });
    }
    expect(await money(id)).toEqual(before);
    expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);
    // another vehicle at 150.00 a day: re-priced through repriceBooking, the paid booking owes the difference
    const moved = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${id}`,
      headers: admin,
      payload: { vehicle_id: other },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await money(id)).toEqual({
      booking: { vehicle_id: other, total: '600.00', addons_total: '0.00', payment_status: 'partially_paid' },
      payments: [
        { amount: '400.00', status: 'succeeded', refunded_amount: '0.00' },
        { amount: '200.00', status: 'pending', refunded_amount: '0.00' },
      ],
    });
    expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);
  });

  it('a transfer moved to another time keeps its price (a route’s price does not depend on the time)', async () => {
    const route = (
      await t.inject({
        method: 'POST',
        url: `${V1}/transfer-routes`,
        headers: admin,
        payload: { origin: 'Airport', destination: 'Port', duration_min: 60, pricing: 'fixed', base_price: 80 },
      })
    ).json().data.id as number;
    const van = await vehicle(t, { service_type: 'transfer', transfer_max_passengers: 7 });
    const made = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: admin,
      payload: {
        vehicle_id: van,
        customer_id: await customer(t),
        kind: 'transfer',
        transfer_route_id: route,
        pickup_date: '2039-04-01',
        pickup_time: '08:00',
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const b = made.json().data as { id: number; total: number };
    const moved = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${b.id}`,
      headers: admin,
      payload: { pickup_date: '2039-04-03', pickup_time: '17:00' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ total: b.total, pickup_at: '2039-04-03T17:00:00.000Z' });
  });
});
