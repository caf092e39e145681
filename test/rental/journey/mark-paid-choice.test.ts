import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPendingPayment } from '../../../src/modules/rental/bookings/create/repo.js';
import { rows } from '../../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';

// POST /v2/bookings/{id}/mark-paid settles the payment it names (payment_id), or the booking's only pending one:
// with several pending and none named it refuses (409 payment_ambiguous, naming them) instead of settling the first.
const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
  admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
}, 240_000);
afterAll(async () => t?.close());

let day = 0;
const offlineBooking = async () => {
  day += 3;
  const d = (n: number) => new Date(Date.UTC(2036, 0, 1) + (day + n) * 86_400_000).toISOString().slice(0, 10);
  const r = await t.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: admin,
    payload: {
      vehicle_id: await vehicle(t),
      pickup_date: d(0),
      return_date: d(2),
      payment_method: 'offline',
      payment_plan: 'full',
      customer: { name: 'Desk Payer', email: `mark-${day}@example.test` },
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data.booking as { id: number; currency: string };
};
const payments = async (id: number) =>
  rows<{ id: number; status: string; amount: string }>(
    t.platform.db,
    sql`SELECT id::int AS id, status, amount::text AS amount FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  );
const markPaid = (id: number, body?: unknown) =>
  t.inject({
    method: 'POST',
    url: `${V2}/bookings/${id}/mark-paid`,
    headers: admin,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });

describe('mark-paid chooses the payment explicitly', () => {
  it('one pending payment: settled without naming it (no body, or an empty one)', async () => {
    const b = await offlineBooking();
    const r = await markPaid(b.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.outcome).toBe('confirmed');
    expect((await payments(b.id)).map((x) => x.status)).toEqual(['succeeded']);
    const again = await offlineBooking();
    expect((await markPaid(again.id, {})).json().data.outcome).toBe('confirmed');
  });

  it('two pending: 409 payment_ambiguous naming both, nothing settled; the named one is settled', async () => {
    const b = await offlineBooking();
    const [first] = await payments(b.id);
    const second = await insertPendingPayment(t.platform.db, {
      bookingId: b.id,
      provider: 'offline',
      amount: '10.00',
      currency: b.currency,
    });
    const r = await markPaid(b.id);
    expect(r.statusCode, r.body).toBe(409);
    expect(r.json()).toMatchObject({
      success: false,
      error_code: 'STATE_CONFLICT',
      message: 'The booking has 2 pending payments: name the one received (payment_id).',
      details: {
        reason: 'payment_ambiguous',
        pending_payments: [
          { id: first!.id, amount: Number(first!.amount), provider: 'offline' },
          { id: second, amount: 10, provider: 'offline' },
        ],
      },
    });
    expect((await payments(b.id)).map((x) => x.status)).toEqual(['pending', 'pending']);
    const named = await markPaid(b.id, { payment_id: first!.id });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().data.outcome).toBe('confirmed');
    // the booking is paid in full by the named one: the other asks for nothing more
    expect((await payments(b.id)).map((x) => x.status)).toEqual(['succeeded', 'failed']);
  });

  it('a payment id that is not the booking’s: 400 naming payment_id; an unknown field: 400', async () => {
    const b = await offlineBooking();
    const other = await offlineBooking();
    const [theirs] = await payments(other.id);
    const r = await markPaid(b.id, { payment_id: theirs!.id });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      message: `Booking ${b.id} has no payment ${theirs!.id}.`,
      details: { field: 'payment_id' },
    });
    expect((await markPaid(b.id, { payment: 1 })).statusCode).toBe(400);
    expect((await payments(b.id)).map((x) => x.status)).toEqual(['pending']);
    expect((await payments(other.id)).map((x) => x.status)).toEqual(['pending']);
  });
});
