// @integration: refunds of an ended booking are decided under the booking lock, racing a payment
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { rows } from '../../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';
import { vendor, vendorVehicle } from '../market/helpers.js';

// Issue 19 item 2: a booking an operator or a vendor ends, or moves to `refunded`, gives back what is still paid —
// a cancelled booking never keeps a succeeded payment (what `rova verify` checks). A customer's own cancel keeps its
// fee (journey tests); these paths refund everything.
const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '1000000' } });
  admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
}, 240_000);
afterAll(async () => t?.close());

let day = 0;
/** A v2 booking of a customer, paid in full offline (mark-paid): confirmed, one succeeded payment. */
async function paidBooking(v: number, paid = true): Promise<{ id: number; customer: Record<string, string> }> {
  day += 3;
  const d = (n: number) => new Date(Date.UTC(2035, 0, 1) + (day + n) * 86_400_000).toISOString().slice(0, 10);
  const customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
  const created = await t.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: customer,
    payload: { vehicle_id: v, pickup_date: d(0), return_date: d(2), payment_method: 'offline', payment_plan: 'full' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.booking.id as number;
  if (paid)
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: admin })).json().data.outcome,
    ).toBe('confirmed');
  return { id, customer };
}

const money = async (id: number) => ({
  booking: (
    await rows<{ status: string; payment_status: string; cancelled_by: string | null }>(
      t.platform.db,
      sql`SELECT status, payment_status, cancelled_by FROM rental_bookings WHERE id = ${id}`,
    )
  )[0],
  payments: await rows<{ status: string; amount: string; refunded_amount: string }>(
    t.platform.db,
    sql`SELECT status, amount::text AS amount, refunded_amount::text AS refunded_amount FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  ),
  refunds: await rows<{ amount: string; reason: string; status: string }>(
    t.platform.db,
    sql`SELECT amount::text AS amount, reason, status FROM rental_refunds WHERE booking_id = ${id} ORDER BY id`,
  ),
});

describe('a booking ended by an operator or a vendor gives back what is paid', () => {
  it('admin cancel of a paid booking → payment refunded, one refund owed (operator_cancelled) and delivered', async () => {
    const { id } = await paidBooking(await vehicle(t));
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/${id}/status`,
      headers: admin,
      payload: { status: 'cancelled' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({
      previous_status: 'confirmed',
      booking: { status: 'cancelled', payment_status: 'refunded' },
    });
    expect(await money(id)).toEqual({
      booking: { status: 'cancelled', payment_status: 'refunded', cancelled_by: 'admin' },
      payments: [{ status: 'refunded', amount: '200.00', refunded_amount: '200.00' }],
      refunds: [{ amount: '200.00', reason: 'operator_cancelled', status: 'done' }],
    });
    // reopening and cancelling again moves no more money
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/bookings/${id}/status`,
          headers: admin,
          payload: { status: 'confirmed' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/bookings/${id}/status`,
          headers: admin,
          payload: { status: 'cancelled' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await money(id)).refunds).toHaveLength(1);
  });

  it('an unpaid booking cancelled by the admin owes nothing', async () => {
    const { id } = await paidBooking(await vehicle(t), false);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V1}/bookings/${id}/status`,
          headers: admin,
          payload: { status: 'cancelled' },
        })
      ).statusCode,
    ).toBe(200);
    expect(await money(id)).toMatchObject({ booking: { status: 'cancelled', payment_status: 'unpaid' }, refunds: [] });
  });

  it("a vendor's cancel refunds in full (vendor_cancelled); completed → refunded gives the money back (booking_refunded)", async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const { id } = await paidBooking(car);
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/bookings/${id}/cancel`,
      headers: v.h,
      payload: { reason: 'Engine trouble' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(await money(id)).toMatchObject({
      booking: { status: 'cancelled', payment_status: 'refunded', cancelled_by: 'vendor' },
      refunds: [{ amount: '200.00', reason: 'vendor_cancelled' }],
    });

    const done = await paidBooking(await vehicle(t));
    await changeStatus(t.platform, done.id, 'completed', { by: 'admin' });
    const refunded = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/${done.id}/status`,
      headers: admin,
      payload: { status: 'refunded' },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(await money(done.id)).toMatchObject({
      booking: { status: 'refunded', payment_status: 'refunded' },
      payments: [{ status: 'refunded', refunded_amount: '200.00' }],
      refunds: [{ amount: '200.00', reason: 'booking_refunded', status: 'done' }],
    });
  });

  it('20 rounds, one app: admin cancel racing mark-paid never leaves a cancelled booking keeping money', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { id } = await paidBooking(await vehicle(t), false);
      const [cancel, paid] = await Promise.all([
        t.inject({
          method: 'POST',
          url: `${V1}/bookings/${id}/status`,
          headers: admin,
          payload: { status: 'cancelled' },
        }),
        t.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: admin }),
      ]);
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(paid.statusCode, paid.body).toBe(200);
      seen.add(paid.json().data.outcome as string);
      const m = await money(id);
      expect(m.booking!.status).toBe('cancelled');
      // whichever came first, the money went back exactly once
      expect(m.payments).toEqual([{ status: 'refunded', amount: '200.00', refunded_amount: '200.00' }]);
      expect(m.refunds.map((x) => x.amount)).toEqual(['200.00']);
    }
    expect([...seen].every((o) => o === 'confirmed' || o === 'refunded_slot_taken')).toBe(true);
    expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);
  }, 120_000);
});
