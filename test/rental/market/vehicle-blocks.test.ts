// @integration: the block guard is a trigger reading blocks committed under the vehicle lock (server-side SQL)
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOverlapViolation } from '../../../src/modules/rental/bookings/repo.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rawBooking, V1, vehicle } from '../helpers.js';
import { vendor, V2 } from './helpers.js';

// Issue 35.5: a vendor blocks days of an own vehicle (maintenance, own use); the vehicle is then not available on them.
describe('vehicle blocks (vendor portal)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let customer: Record<string, string>;
  let seq = 0;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
    customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
  }, 300_000);
  afterAll(async () => t?.close());

  /** A listed vehicle of the vendor with a brand of its own (so a search can be narrowed to it). */
  async function car(vendorId: number): Promise<{ id: number; brand: string }> {
    seq += 1;
    const brand = `Blockmobile${seq}`;
    const id = await vehicle(t, { vendor_id: vendorId, brand });
    await t.platform.db.execute(
      sql`INSERT INTO vendor_listings (vehicle_id, vendor_id, lifecycle) VALUES (${id}, ${vendorId}, 'active')`,
    );
    return { id, brand };
  }
  const block = (h: Record<string, string>, id: number, payload: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${id}/blocks`, headers: h, payload });
  const available = async (id: number, pickup: string, ret: string) => {
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/availability`,
      payload: { vehicle_id: id, pickup_date: pickup, return_date: ret },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data as { available: boolean; reason?: string };
  };
  const checked = async (id: number, pickup: string, ret: string) => {
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/check`,
      payload: { vehicle_id: id, pickup_date: pickup, return_date: ret },
    });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().data.available as boolean;
  };
  const found = async (brand: string, pickup: string, ret: string) => {
    const r = await t.inject({
      method: 'GET',
      url: `${V2}/vehicles/search?brand=${brand}&pickup_date=${pickup}&return_date=${ret}`,
    });
    expect(r.statusCode, r.body).toBe(200);
    return (r.json().data.items as { vehicle_id: number }[]).map((v) => v.vehicle_id);
  };
  const book = (id: number, pickup: string, ret: string) =>
    t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: customer,
      payload: {
        vehicle_id: id,
        pickup_date: pickup,
        return_date: ret,
        payment_method: 'offline',
        payment_plan: 'full',
      },
    });

  it('a block takes its days out of availability, check, search and create; removing it gives them back', async () => {
    const v = await vendor(t);
    const { id, brand } = await car(v.id);
    expect(await found(brand, '2041-03-11', '2041-03-12')).toEqual([id]);

    const r = await block(v.h, id, { from: '2041-03-10', to: '2041-03-12', reason: 'maintenance', note: ' Brakes ' });
    expect(r.statusCode, r.body).toBe(201);
    const made = r.json().data;
    expect(r.json()).toMatchObject({ success: true, message: 'Dates blocked.' });
    expect(made).toEqual({
      id: expect.any(Number),
      vehicle_id: id,
      from: '2041-03-10',
      to: '2041-03-12',
      reason: 'maintenance',
      note: 'Brakes',
      created_at: expect.any(String),
    });
    const list = await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles/${id}/blocks`, headers: v.h });
    expect(list.json().data).toEqual([made]);

    // every day of the block, and a rental that returns into its first day
    expect(await available(id, '2041-03-11', '2041-03-12')).toMatchObject({ available: false, reason: 'blocked' });
    expect(await available(id, '2041-03-08', '2041-03-10')).toMatchObject({ available: false });
    expect(await available(id, '2041-03-12', '2041-03-14')).toMatchObject({ available: false });
    // the day after its last is free (a 10:00 pick-up, the 60-minute buffer after midnight)
    expect(await available(id, '2041-03-13', '2041-03-15')).toEqual(expect.objectContaining({ available: true }));
    expect(await checked(id, '2041-03-11', '2041-03-12')).toBe(false);
    expect(await found(brand, '2041-03-11', '2041-03-12')).toEqual([]);
    expect(await found(brand, '2041-03-13', '2041-03-15')).toEqual([id]);
    const refused = await book(id, '2041-03-09', '2041-03-11');
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, error_code: 'VEHICLE_NOT_AVAILABLE' });
    expect(refused.json().message).toContain('blocked');

    const audit = await t.inject({
      method: 'GET',
      url: `${V1}/vendor-management/${v.id}/audit-log?event_type=vehicle_blocked`,
      headers: admin,
    });
    expect(audit.json().data.items).toMatchObject([
      { event_type: 'vehicle_blocked', vehicle_id: id, note: 'Blocked 2041-03-10 – 2041-03-12 (maintenance): Brakes.' },
    ]);

    const gone = await t.inject({
      method: 'DELETE',
      url: `${V1}/vendor/vehicles/${id}/blocks/${made.id}`,
      headers: v.h,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toMatchObject({ success: true, data: { id: made.id, removed: true } });
    expect(
      (await t.inject({ method: 'DELETE', url: `${V1}/vendor/vehicles/${id}/blocks/${made.id}`, headers: v.h }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles/${id}/blocks`, headers: v.h })).json().data,
    ).toEqual([]);
    expect(await available(id, '2041-03-11', '2041-03-12')).toMatchObject({ available: true });
    expect(await checked(id, '2041-03-11', '2041-03-12')).toBe(true);
    expect(await found(brand, '2041-03-11', '2041-03-12')).toEqual([id]);
    const booked = await book(id, '2041-03-09', '2041-03-11');
    expect(booked.statusCode, booked.body).toBe(201);
    const unblocked = await t.inject({
      method: 'GET',
      url: `${V1}/vendor-management/${v.id}/audit-log?event_type=vehicle_unblocked`,
      headers: admin,
    });
    expect(unblocked.json().data.items).toMatchObject([
      { event_type: 'vehicle_unblocked', vehicle_id: id, note: 'Block 2041-03-10 – 2041-03-12 (maintenance) removed.' },
    ]);
  });

  it('refuses a block over a booking (409 naming it) or over another block, and shows both on the month', async () => {
    const v = await vendor(t);
    const { id } = await car(v.id);
    const b = await book(id, '2041-04-05', '2041-04-07');
    expect(b.statusCode, b.body).toBe(201);
    const ref = b.json().data.booking.reference as string;
    const over = await block(v.h, id, { from: '2041-04-07', to: '2041-04-09', reason: 'own_use' });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json()).toEqual({
      success: false,
      error_code: 'STATE_CONFLICT',
      message: `Booking ${ref} (2041-04-05 – 2041-04-07) holds the vehicle in this period.`,
      details: { reason: 'booked', booking_id: b.json().data.booking.id, reference: ref },
    });
    // the day after the return is free to block
    const next = await block(v.h, id, { from: '2041-04-08', to: '2041-04-09', reason: 'own_use' });
    expect(next.statusCode, next.body).toBe(201);
    const twice = await block(v.h, id, { from: '2041-04-09', to: '2041-04-12', reason: 'maintenance' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      error_code: 'STATE_CONFLICT',
      message: 'The vehicle is already blocked 2041-04-08 – 2041-04-09.',
      details: { reason: 'blocked', block_id: next.json().data.id },
    });

    const month = await t.inject({
      method: 'GET',
      url: `${V1}/vendor/vehicles/${id}/calendar?month=2041-04`,
      headers: v.h,
    });
    expect(month.statusCode, month.body).toBe(200);
    expect(month.json().data).toEqual({
      month: '2041-04',
      from: '2041-04-01',
      to: '2041-04-30',
      bookings: [
        {
          id: b.json().data.booking.id,
          reference: ref,
          status: 'pending_payment',
          from: '2041-04-05',
          to: '2041-04-07',
        },
      ],
      blocks: [next.json().data],
    });
    const may = await t.inject({
      method: 'GET',
      url: `${V1}/vendor/vehicles/${id}/calendar?month=2041-05`,
      headers: v.h,
    });
    expect(month.statusCode).toBe(200);
    expect(may.json().data).toMatchObject({ from: '2041-05-01', to: '2041-05-31', bookings: [], blocks: [] });
  });

  it("another vendor's vehicle answers 404 like a missing one; a customer is refused; bad bodies are 400", async () => {
    const owner = await vendor(t);
    const other = await vendor(t);
    const { id } = await car(owner.id);
    const made = (await block(owner.h, id, { from: '2041-06-01', to: '2041-06-02', reason: 'own_use' })).json().data;
    for (const [method, url, payload] of [
      ['GET', `${V1}/vendor/vehicles/${id}/blocks`, undefined],
      ['GET', `${V1}/vendor/vehicles/${id}/calendar?month=2041-06`, undefined],
      ['POST', `${V1}/vendor/vehicles/${id}/blocks`, { from: '2041-07-01', to: '2041-07-02', reason: 'own_use' }],
      ['DELETE', `${V1}/vendor/vehicles/${id}/blocks/${made.id}`, undefined],
    ] as const) {
      const r = await t.inject({ method, url, headers: other.h, ...(payload ? { payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json()).toMatchObject({ error_code: 'VEHICLE_NOT_FOUND', message: `Vehicle ${id} does not exist.` });
    }
    const asCustomer = await block(customer, id, { from: '2041-07-01', to: '2041-07-02', reason: 'own_use' });
    expect(asCustomer.statusCode).toBe(403);
    // the other vendor's attempts changed nothing
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/vehicles/${id}/blocks`, headers: owner.h })).json().data,
    ).toEqual([made]);

    const bad: [Record<string, unknown>, number, string][] = [
      [{ from: '2041-07-05', to: '2041-07-04', reason: 'own_use' }, 400, 'INVALID_DATE_RANGE'],
      [{ from: '2020-01-01', to: '2020-01-02', reason: 'own_use' }, 400, 'INVALID_PARAMS'],
      [{ from: '2041-02-30', to: '2041-03-02', reason: 'own_use' }, 400, 'INVALID_PARAMS'],
      [{ from: '2041-07-01', to: '2042-08-01', reason: 'own_use' }, 400, 'INVALID_PARAMS'],
      [{ from: '2041-07-01', to: '2041-07-02', reason: 'holiday' }, 400, 'INVALID_PARAMS'],
      [{ from: '2041-07-01', to: '2041-07-02', reason: 'own_use', vehicle_id: 1 }, 400, 'INVALID_PARAMS'],
    ];
    for (const [payload, status, code] of bad) {
      const r = await block(owner.h, id, payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(status);
      expect(r.json().error_code).toBe(code);
    }
  });

  it('the database refuses a booking written over a block, whatever the code checked (the guard of migration 0725)', async () => {
    const v = await vendor(t);
    const { id } = await car(v.id);
    expect((await block(v.h, id, { from: '2041-08-10', to: '2041-08-11', reason: 'maintenance' })).statusCode).toBe(
      201,
    );
    const err = await rawBooking(t, id, '2041-08-11T08:00:00Z', '2041-08-13T08:00:00Z', 'confirmed').catch(
      (e: unknown) => e,
    );
    expect(isOverlapViolation(err)).toBe(true);
    // a booking that does not hold its slot is not refused; moving it to a holding status is
    const draft = await rawBooking(t, id, '2041-08-11T08:00:00Z', '2041-08-13T08:00:00Z', 'cancelled');
    const moved = await t.platform.db
      .execute(sql`UPDATE rental_bookings SET status = 'confirmed' WHERE id = ${draft}`)
      .catch((e: unknown) => e);
    expect(isOverlapViolation(moved)).toBe(true);
    // outside the block (with the buffer) it is written
    expect(await rawBooking(t, id, '2041-08-12T02:00:00Z', '2041-08-13T08:00:00Z', 'confirmed')).toBeGreaterThan(0);
  });
});
