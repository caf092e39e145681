import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { location, V1, vehicle } from './helpers.js';

// Issue 35 item 6: the planner moves a bar to another day or vehicle. The quote (POST /bookings/{id}/quote) answers
// what PUT /bookings/{id} would do, by the same rules, and writes nothing; PUT moves the booking to another vehicle.
describe('moving a booking to other dates or another vehicle', () => {
  let t: TestApp;
  let h: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    h = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  });
  afterAll(async () => t?.close());

  const create = async (body: Record<string, unknown>) => {
    const r = await t.inject({ method: 'POST', url: `${V1}/bookings`, headers: h, payload: body });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data as Record<string, unknown> & { id: number; total: number };
  };
  const quote = (id: number, body: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: `${V1}/bookings/${id}/quote`, headers: h, payload: body });
  const put = (id: number, body: Record<string, unknown>) =>
    t.inject({ method: 'PUT', url: `${V1}/bookings/${id}`, headers: h, payload: body });
  const get = async (id: number) =>
    (await t.inject({ method: 'GET', url: `${V1}/bookings/${id}`, headers: h })).json().data as Record<string, unknown>;
  const customer = { name: 'Walk In', email: 'walk.in@example.test', phone: '+1 555 0100' };

  it('quotes a longer stay on another vehicle without writing, then PUT makes exactly that change', async () => {
    const a = await vehicle(t, { price_per_day: '50.00' });
    const b = await vehicle(t, { price_per_day: '70.00' });
    const bk = await create({
      vehicle_id: a,
      customer,
      pickup_date: '2031-03-02',
      return_date: '2031-03-04',
      status: 'confirmed',
      payment_method: 'pay_at_pickup',
    });
    expect(bk.total).toBe(100);
    const before = await get(bk.id);

    const q = await quote(bk.id, { vehicle_id: b, pickup_date: '2031-03-03', return_date: '2031-03-06' });
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json().data).toMatchObject({
      previous_total: 100,
      total: 210,
      difference: 110,
      refund: 0,
      due: 0,
      payment_status: 'unpaid',
      booking: { id: bk.id, vehicle_id: b, days: 3, total: 210 },
    });
    // nothing written
    expect(await get(bk.id)).toEqual(before);

    const moved = await put(bk.id, { vehicle_id: b, pickup_date: '2031-03-03', return_date: '2031-03-06' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ vehicle_id: b, days: 3, total: 210 });
    expect(moved.json().data.pickup_at).toBe(q.json().data.booking.pickup_at);
    expect(moved.json().data.return_at).toBe(q.json().data.booking.return_at);

    // the old vehicle is free for those days again, the new one is taken
    const availA = await t.inject({
      method: 'POST',
      url: `${V1}/availability`,
      headers: h,
      payload: { vehicle_id: a, pickup_date: '2031-03-02', return_date: '2031-03-04' },
    });
    expect(availA.json().data.available).toBe(true);
    const availB = await t.inject({
      method: 'POST',
      url: `${V1}/availability`,
      headers: h,
      payload: { vehicle_id: b, pickup_date: '2031-03-04', return_date: '2031-03-05' },
    });
    expect(availB.json().data).toMatchObject({ available: false, reason: 'booked' });
  });

  it('refuses a move onto a taken slot, in the quote and in PUT alike, and leaves the booking where it was', async () => {
    const a = await vehicle(t, { price_per_day: '40.00' });
    const b = await vehicle(t, { price_per_day: '40.00' });
    const moving = await create({ vehicle_id: a, customer, pickup_date: '2031-05-10', return_date: '2031-05-12' });
    await create({
      vehicle_id: b,
      customer,
      pickup_date: '2031-05-11',
      return_date: '2031-05-13',
      status: 'confirmed',
    });
    for (const r of [await quote(moving.id, { vehicle_id: b }), await put(moving.id, { vehicle_id: b })]) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({
        success: false,
        error_code: 'VEHICLE_NOT_AVAILABLE',
        message: 'The vehicle is not available for these dates (booked).',
      });
    }
    expect((await get(moving.id)).vehicle_id).toBe(a);
    // an unknown vehicle is a 404, a transfer keeps its vehicle
    const gone = await quote(moving.id, { vehicle_id: 999_999 });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error_code).toBe('VEHICLE_NOT_FOUND');
  });

  it('a paid booking made shorter: the quote says what would be refunded, and writes no refund', async () => {
    const a = await vehicle(t, { price_per_day: '30.00' });
    const bk = await create({
      vehicle_id: a,
      customer,
      pickup_date: '2031-07-01',
      return_date: '2031-07-05',
      status: 'pending_payment',
      payment_method: 'bank_transfer',
    });
    const paid = await t.inject({
      method: 'POST',
      url: `/wp-json/rova-rental/v2/bookings/${bk.id}/payments`,
      headers: { ...h, 'idempotency-key': `move-test-${bk.id}` },
      payload: { kind: 'full', method: 'cash' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const q = await quote(bk.id, { return_date: '2031-07-03' });
    expect(q.json().data).toMatchObject({
      previous_total: 120,
      total: 60,
      difference: -60,
      refund: 60,
      due: 0,
      payment_status: 'paid',
    });
    expect((await get(bk.id)).refunds).toEqual([]);
    const longer = await quote(bk.id, { return_date: '2031-07-06' });
    expect(longer.json().data).toMatchObject({ total: 150, difference: 30, refund: 0, due: 30 });
    expect(longer.json().data.payment_status).toBe('partially_paid');
    expect(await get(bk.id)).toMatchObject({ total: 120, payment_status: 'paid', amount_due: 0 });
  });

  it('the operator’s booking: pick-up and return location, times, and the payment method’s deadline rule', async () => {
    const a = await vehicle(t, { price_per_day: '30.00' });
    const here = await location(t, { name: 'Desk A' });
    const there = await location(t, { name: 'Desk B' });
    const bk = await create({
      vehicle_id: a,
      customer,
      pickup_date: '2031-09-01',
      pickup_time: '09:30',
      return_date: '2031-09-03',
      return_time: '17:00',
      location_id: here,
      return_location_id: there,
      status: 'pending',
      payment_method: 'pay_at_pickup',
    });
    expect(bk).toMatchObject({
      pickup_location_id: here,
      return_location_id: there,
      payment_method: 'pay_at_pickup',
      payment_deadline: null,
      status: 'pending',
    });
  });
});
