import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { one } from '../../../src/platform/db/types.js';
import { rawBooking, V1 } from '../helpers.js';
import { vendor, vendorVehicle } from './helpers.js';

describe('reliability score: vendor-initiated cancellations and score history (reference §2.13)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => t?.close());

  const cancel = (h: Record<string, string>, id: number, payload?: Record<string, unknown>) =>
    t.inject({
      method: 'POST',
      url: `${V1}/vendor/bookings/${id}/cancel`,
      headers: h,
      ...(payload ? { payload } : {}),
    });
  const who = async (id: number) =>
    one<{ cancelled_by: string | null; has_at: boolean }>(
      t.platform.db,
      sql`SELECT cancelled_by, cancelled_at IS NOT NULL AS has_at FROM rental_bookings WHERE id = ${id}`,
    );

  it('a vendor cancelling its own booking is recorded as vendor-initiated and costs 5 points; history shows in the vendor detail', async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const b = await rawBooking(t, car, '2033-03-01T10:00:00Z', '2033-03-04T10:00:00Z', 'confirmed');
    const r = await cancel(v.h, b, { reason: 'Engine failure' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      success: true,
      data: { id: b, status: 'cancelled', previous_status: 'confirmed', reliability_score: 95 },
    });
    expect(await who(b)).toEqual({ cancelled_by: 'vendor', has_at: true });
    const d = (await t.inject({ method: 'GET', url: `${V1}/vendor-management/${v.id}`, headers: admin })).json().data;
    expect(d.reliability_score).toBe(95);
    expect(d.statistics.reliability_score).toBe(95);
    expect(d.score_history).toMatchObject([
      { event_type: 'cancel', vehicle_id: car, score_before: 100, score_after: 95, delta: -5 },
    ]);
    expect(d.score_history[0].created_at).toMatch(/Z$/);
    const log = (
      await t.inject({
        method: 'GET',
        url: `${V1}/vendor-management/${v.id}/audit-log?event_type=booking_cancelled`,
        headers: admin,
      })
    ).json().data.items;
    expect(log).toMatchObject([
      {
        event_type: 'booking_cancelled',
        booking_id: b,
        vehicle_id: car,
        note: `Booking ${b} cancelled by the vendor: Engine failure`,
      },
    ]);
    // a second one, then a pause: 100 − 2×5 − 2 = 88, newest first in the history
    const b2 = await rawBooking(t, car, '2033-04-01T10:00:00Z', '2033-04-04T10:00:00Z', 'pending_payment');
    expect((await cancel(v.h, b2)).json().data.reliability_score).toBe(90);
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${car}/pause`, headers: v.h })).statusCode,
    ).toBe(200);
    const h = (await t.inject({ method: 'GET', url: `${V1}/vendor-management/${v.id}`, headers: admin })).json().data
      .score_history;
    expect(
      h.map((x: { event_type: string; score_after: number; delta: number }) => [x.event_type, x.score_after, x.delta]),
    ).toEqual([
      ['pause', 88, -2],
      ['cancel', 90, -5],
      ['cancel', 95, -5],
    ]);
  });

  it("an administrator's or a reinstated cancellation does not count; another vendor's booking → 404; illegal move → 409; a customer → 403", async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const b = await rawBooking(t, car, '2033-05-01T10:00:00Z', '2033-05-04T10:00:00Z', 'confirmed');
    const byAdmin = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/${b}/status`,
      headers: admin,
      payload: { status: 'cancelled' },
    });
    expect(byAdmin.statusCode).toBe(200);
    expect(await who(b)).toEqual({ cancelled_by: 'admin', has_at: true });
    // cancelled → cancelled is not a move
    const again = await cancel(v.h, b);
    expect(again.statusCode).toBe(409);
    expect(again.json().error_code).toBe('STATE_CONFLICT');

    const b2 = await rawBooking(t, car, '2033-06-01T10:00:00Z', '2033-06-04T10:00:00Z', 'confirmed');
    expect((await cancel(v.h, b2)).json().data.reliability_score).toBe(95);
    // reinstated by the operator: no longer a cancellation, the next recomputation forgives it
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/bookings/${b2}/status`,
          headers: admin,
          payload: { status: 'confirmed' },
        })
      ).statusCode,
    ).toBe(200);
    expect(await who(b2)).toEqual({ cancelled_by: null, has_at: false });
    const other = await vendorVehicle(t, v.id);
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${other}/pause`, headers: v.h })).statusCode,
    ).toBe(200);
    expect(
      (await one<{ s: number }>(
        t.platform.db,
        sql`SELECT reliability_score AS s FROM rental_vendors WHERE user_id = ${v.id}`,
      ))!.s,
    ).toBe(98);

    const w = await vendor(t);
    const missing = await cancel(w.h, b2);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error_code).toBe('RESOURCE_NOT_FOUND');
    expect((await cancel(w.h, 99999999)).statusCode).toBe(404);
    expect(await who(b2)).toEqual({ cancelled_by: null, has_at: false });
    const c = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    expect((await cancel(c, b2)).statusCode).toBe(403);
    expect((await cancel({}, b2)).statusCode).toBe(401);
  });
});
