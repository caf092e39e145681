// @integration: concurrent bookings race on the exclusion constraint
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { sql } from 'drizzle-orm';
import { customer, location, rule, V1, vehicle } from './helpers.js';

describe('bookings', () => {
  let t: TestApp;
  let h: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    h = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
    await rule(t, { name: 'VAT', kind: 'tax', percent: '18' });
  });
  afterAll(async () => t?.close());

  const create = (body: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: `${V1}/bookings`, headers: h, payload: body });

  it('creates a priced booking with a new customer, then refuses the overlapping slot with 409 VEHICLE_NOT_AVAILABLE', async () => {
    const v = await vehicle(t, { price_per_day: '80.00' });
    const r = await create({
      vehicle_id: v,
      customer: { name: 'Ada L', email: 'ada@example.test' },
      pickup_date: '2030-08-01',
      return_date: '2030-08-04',
    });
    expect(r.statusCode).toBe(201);
    const b = r.json();
    expect(b).toMatchObject({ success: true, message: 'Booking created.' });
    expect(b.data).toMatchObject({
      vehicle_id: v,
      status: 'pending_payment',
      days: 3,
      net_price: 240,
      tax: 43.2,
      total: 283.2,
      customer_name: 'Ada L',
      kind: 'rental',
    });
    expect(b.data.payment_deadline).not.toBeNull();
    const again = await create({
      vehicle_id: v,
      customer_id: b.data.customer_id,
      pickup_date: '2030-08-03',
      return_date: '2030-08-05',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      success: false,
      error_code: 'VEHICLE_NOT_AVAILABLE',
      details: { reason: 'booked' },
    });
    // same e-mail reuses the customer record
    const later = await create({
      vehicle_id: v,
      customer: { name: 'Ada', email: 'ADA@example.test' },
      pickup_date: '2030-09-01',
      return_date: '2030-09-02',
      status: 'confirmed',
    });
    expect(later.json().data.customer_id).toBe(b.data.customer_id);
  });

  it('concurrent creates for the same slot: exactly one succeeds', async () => {
    const v = await vehicle(t);
    const c = await customer(t);
    const rs = await Promise.all(
      Array.from({ length: 6 }, () =>
        create({
          vehicle_id: v,
          customer_id: c,
          pickup_date: '2030-10-01',
          return_date: '2030-10-03',
          status: 'confirmed',
        }),
      ),
    );
    const codes = rs.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('validation: unknown vehicle 404, unknown customer 400, no customer 400, reversed dates 400, bad status 400', async () => {
    const v = await vehicle(t);
    expect(
      (
        await create({
          vehicle_id: 999999,
          customer: { name: 'x', email: 'x@x.io' },
          pickup_date: '2030-01-01',
          return_date: '2030-01-02',
        })
      ).json().error_code,
    ).toBe('VEHICLE_NOT_FOUND');
    expect(
      (
        await create({ vehicle_id: v, customer_id: 999999, pickup_date: '2030-01-01', return_date: '2030-01-02' })
      ).json().error_code,
    ).toBe('INVALID_PARAMS');
    expect((await create({ vehicle_id: v, pickup_date: '2030-01-01', return_date: '2030-01-02' })).statusCode).toBe(
      400,
    );
    expect(
      (await create({ vehicle_id: v, customer_id: 1, pickup_date: '2030-01-03', return_date: '2030-01-02' })).json()
        .error_code,
    ).toBe('INVALID_DATE_RANGE');
    expect(
      (
        await create({
          vehicle_id: v,
          customer_id: 1,
          pickup_date: '2030-01-01',
          return_date: '2030-01-02',
          status: 'completed',
        })
      ).json().error_code,
    ).toBe('INVALID_PARAMS');
  });

  it('PUT re-checks overlap (excluding itself) and re-prices; GET one and list with filters', async () => {
    const v = await vehicle(t, { price_per_day: '50.00' });
    const c = await customer(t);
    const a = (
      await create({
        vehicle_id: v,
        customer_id: c,
        pickup_date: '2030-11-01',
        return_date: '2030-11-03',
        status: 'confirmed',
      })
    ).json().data;
    await create({
      vehicle_id: v,
      customer_id: c,
      pickup_date: '2030-11-10',
      return_date: '2030-11-12',
      status: 'confirmed',
    });
    const moveOwn = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${a.id}`,
      headers: h,
      payload: { return_date: '2030-11-05', notes: 'longer' },
    });
    expect(moveOwn.statusCode).toBe(200);
    expect(moveOwn.json().data).toMatchObject({ days: 4, net_price: 200, notes: 'longer' });
    const clash = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${a.id}`,
      headers: h,
      payload: { return_date: '2030-11-11' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error_code).toBe('VEHICLE_NOT_AVAILABLE');
    const one = await t.inject({ method: 'GET', url: `${V1}/bookings/${a.id}`, headers: h });
    expect(one.json().data.return_at).toBe('2030-11-05T10:00:00.000Z');
    const list = await t.inject({ method: 'GET', url: `${V1}/bookings?vehicle_id=${v}&per_page=1&page=2`, headers: h });
    expect(list.json().data).toMatchObject({ total: 2, total_pages: 2, page: 2, per_page: 1 });
    expect(list.json().data.items).toHaveLength(1);
    const past = await t.inject({ method: 'GET', url: `${V1}/bookings?vehicle_id=${v}&page=9`, headers: h });
    expect(past.json().data.items).toEqual([]);
    expect((await t.inject({ method: 'GET', url: `${V1}/bookings?per_page=101`, headers: h })).json().error_code).toBe(
      'INVALID_PARAMS',
    );
    expect((await t.inject({ method: 'GET', url: `${V1}/bookings/424242`, headers: h })).json().error_code).toBe(
      'RESOURCE_NOT_FOUND',
    );
  });

  it('GET one: the vehicle and locations by name, payments and refunds with their amounts; operator bookings have no order lines', async () => {
    const v = await vehicle(t, { name: 'Detail Clio', price_per_day: '40.00' });
    const c = await customer(t);
    const loc = await location(t, { name: 'Detail Airport Desk' });
    const b = (
      await create({
        vehicle_id: v,
        customer_id: c,
        pickup_date: '2030-12-01',
        return_date: '2030-12-03',
        status: 'confirmed',
        location_id: loc,
      })
    ).json().data;
    const pay = await t.platform.db.execute(
      sql`INSERT INTO rental_payments (booking_id, provider, amount, currency, status, refunded_amount) VALUES (${b.id}, 'offline', 94.4, ${b.currency}, 'succeeded', 20) RETURNING id::int AS id`,
    );
    const payId = (pay as unknown as { rows: { id: number }[] }).rows[0]!.id;
    await t.platform.db.execute(
      sql`INSERT INTO rental_refunds (payment_id, booking_id, amount, currency, reason) VALUES (${payId}, ${b.id}, 20, ${b.currency}, 'customer_cancelled')`,
    );
    const r = await t.inject({ method: 'GET', url: `${V1}/bookings/${b.id}`, headers: h });
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d).toMatchObject({
      id: b.id,
      reference: b.reference,
      total: b.total,
      vehicle: { id: v, name: 'Detail Clio' },
      pickup_location: { id: loc, name: 'Detail Airport Desk' },
      return_location: { id: loc, name: 'Detail Airport Desk' },
      lines: [],
      payments: [
        {
          id: payId,
          provider: 'offline',
          amount: 94.4,
          currency: b.currency,
          status: 'succeeded',
          refunded_amount: 20,
          created_at: expect.any(String),
        },
      ],
      refunds: [
        {
          payment_id: payId,
          amount: 20,
          currency: b.currency,
          reason: 'customer_cancelled',
          status: 'pending',
          created_at: expect.any(String),
          done_at: null,
        },
      ],
    });
    // the list stays lean: no per-row money records
    const list = (await t.inject({ method: 'GET', url: `${V1}/bookings?vehicle_id=${v}`, headers: h })).json().data
      .items;
    expect(list[0]).not.toHaveProperty('payments');
    const missing = await t.inject({ method: 'GET', url: `${V1}/bookings/424243`, headers: h });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      success: false,
      error_code: 'RESOURCE_NOT_FOUND',
      message: 'Booking 424243 does not exist.',
    });
  });

  it('transfer bookings: route price + tax, held for the route duration, capacity and service type checked', async () => {
    const route = (
      await t.inject({
        method: 'POST',
        url: `${V1}/transfer-routes`,
        headers: h,
        payload: { origin: 'Airport', destination: 'Hotel', duration_min: 90, pricing: 'fixed', base_price: 60 },
      })
    ).json().data.id;
    const van = await vehicle(t, { service_type: 'transfer', transfer_max_passengers: 7 });
    const car = await vehicle(t);
    const c = await customer(t);
    const ok = await create({
      vehicle_id: van,
      customer_id: c,
      kind: 'transfer',
      transfer_route_id: route,
      passengers: 3,
      pickup_date: '2030-12-01',
      pickup_time: '08:00',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data).toMatchObject({
      kind: 'transfer',
      net_price: 60,
      tax: 10.8,
      total: 70.8,
      transfer_origin: 'Airport',
      pickup_at: '2030-12-01T08:00:00.000Z',
      return_at: '2030-12-01T09:30:00.000Z',
    });
    const clash = await create({
      vehicle_id: van,
      customer_id: c,
      kind: 'transfer',
      transfer_route_id: route,
      pickup_date: '2030-12-01',
      pickup_time: '10:00',
    });
    expect(clash.json().error_code).toBe('VEHICLE_NOT_AVAILABLE');
    expect(
      (
        await create({
          vehicle_id: van,
          customer_id: c,
          kind: 'transfer',
          transfer_route_id: route,
          pickup_date: '2030-12-01',
          pickup_time: '10:30',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await create({
          vehicle_id: van,
          customer_id: c,
          kind: 'transfer',
          transfer_route_id: route,
          passengers: 9,
          pickup_date: '2030-12-05',
        })
      ).json().error_code,
    ).toBe('INVALID_PARAMS');
    expect(
      (
        await create({
          vehicle_id: car,
          customer_id: c,
          kind: 'transfer',
          transfer_route_id: route,
          pickup_date: '2030-12-05',
        })
      ).statusCode,
    ).toBe(409);
    expect((await create({ vehicle_id: car, customer_id: c, pickup_date: '2030-12-05' })).json().error_code).toBe(
      'INVALID_PARAMS',
    );
    const moved = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${ok.json().data.id}`,
      headers: h,
      payload: { pickup_time: '13:00' },
    });
    expect(moved.json().data).toMatchObject({
      pickup_at: '2030-12-01T13:00:00.000Z',
      return_at: '2030-12-01T14:30:00.000Z',
      total: 70.8,
    });
    const onto = await t.inject({
      method: 'PUT',
      url: `${V1}/bookings/${ok.json().data.id}`,
      headers: h,
      payload: { pickup_time: '10:00' },
    });
    expect(onto.json().error_code).toBe('VEHICLE_NOT_AVAILABLE');
  });

  it('concurrent first bookings of one new customer on different vehicles share one customer record', async () => {
    const vs = await Promise.all([vehicle(t), vehicle(t), vehicle(t), vehicle(t)]);
    const rs = await Promise.all(
      vs.map((v) =>
        create({
          vehicle_id: v,
          customer: { name: 'Race', email: 'race@example.test' },
          pickup_date: '2030-06-10',
          return_date: '2030-06-11',
        }),
      ),
    );
    expect(rs.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(rs.map((r) => r.json().data.customer_id)).size).toBe(1);
  });
});
