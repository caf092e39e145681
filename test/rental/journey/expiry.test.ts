// @integration: the expiry job claims bookings under row locks
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHoldExpiry } from '../../../src/modules/rental/bookings/jobs.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';

const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

describe('unpaid bookings past their payment deadline are cancelled (job and lazily)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
  }, 240_000);
  afterAll(async () => t?.close());

  const book = async (v: number, d1: string, d2: string, email: string) => {
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': admin },
      payload: {
        vehicle_id: v,
        pickup_date: d1,
        return_date: d2,
        payment_method: 'offline',
        payment_plan: 'full',
        customer: { name: 'Late Payer', email },
      },
    });
    expect(r.statusCode).toBe(201);
    return r.json().data.booking.id as number;
  };
  const lapse = (id: number) =>
    t.platform.db.execute(
      sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 second' WHERE id = ${id}`,
    );
  const row = async (id: number) =>
    rowsOf<{ status: string; cancel_reason: string | null; notes: string; holds_slot: boolean }>(
      await t.platform.db.execute(
        sql`SELECT status, cancel_reason, notes, holds_slot FROM rental_bookings WHERE id = ${id}`,
      ),
    )[0]!;
  const cancelledEvents = async (id: number) =>
    rowsOf<{ n: number }>(
      await t.platform.db.execute(
        sql`SELECT count(*)::int AS n FROM rova_events WHERE type = 'booking.cancelled' AND payload->'data'->>'id' = ${String(id)}`,
      ),
    )[0]!.n;
  const subjects = async (to: string) =>
    (
      (
        await t.inject({
          method: 'GET',
          url: `${R}/outbox?to=${encodeURIComponent(to)}`,
          headers: { 'x-rova-api-key': admin },
        })
      ).json() as { template: string }[]
    ).map((m) => m.template);

  it('the job cancels each lapsed unpaid booking once, with the reason, a booking.cancelled event and a mail', async () => {
    const v = await vehicle(t);
    const lapsed = await book(v, '2034-01-10', '2034-01-12', 'expired-job@example.test');
    const live = await book(v, '2034-02-10', '2034-02-12', 'still-live@example.test');
    await lapse(lapsed);
    expect(await runHoldExpiry(t.platform)).toBe(1);
    expect(await row(lapsed)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'payment_deadline_passed',
      holds_slot: false,
    });
    expect((await row(lapsed)).notes).toContain('payment deadline passed');
    expect(await row(live)).toMatchObject({ status: 'pending_payment', holds_slot: true });
    expect(await cancelledEvents(lapsed)).toBe(1);
    expect((await subjects('expired-job@example.test')).filter((s) => s === 'booking_cancelled')).toHaveLength(1);
    expect(await runHoldExpiry(t.platform)).toBe(0);
    expect(await cancelledEvents(lapsed)).toBe(1);
    // the slot is free for someone else
    await book(v, '2034-01-11', '2034-01-13', 'next@example.test');
  });

  it('lazily: the next booking of the vehicle cancels the lapsed hold before it checks the slot', async () => {
    const v = await vehicle(t);
    const lapsed = await book(v, '2034-03-10', '2034-03-12', 'expired-lazy@example.test');
    await lapse(lapsed);
    await book(v, '2034-03-11', '2034-03-13', 'taker@example.test');
    expect(await row(lapsed)).toMatchObject({ status: 'cancelled', cancel_reason: 'payment_deadline_passed' });
    expect(await cancelledEvents(lapsed)).toBe(1);
    expect((await subjects('expired-lazy@example.test')).filter((s) => s === 'booking_cancelled')).toHaveLength(1);
    // its payment arrives now: the slot was taken → refunded, stays cancelled with the late-payment reason
    const paid = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${lapsed}/mark-paid`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(paid.json().data).toMatchObject({
      outcome: 'refunded_slot_taken',
      booking: { status: 'cancelled', payment_status: 'refunded' },
    });
    expect(await row(lapsed)).toMatchObject({ cancel_reason: 'late_payment_slot_taken' });
  });

  it('a payment after expiry while the slot is still free confirms the booking', async () => {
    const v = await vehicle(t);
    const lapsed = await book(v, '2034-04-10', '2034-04-12', 'late-but-free@example.test');
    await lapse(lapsed);
    await runHoldExpiry(t.platform);
    const paid = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${lapsed}/mark-paid`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(paid.json().data).toMatchObject({
      outcome: 'confirmed',
      booking: { status: 'confirmed', payment_status: 'paid' },
    });
    expect(await row(lapsed)).toMatchObject({ status: 'confirmed', cancel_reason: null, holds_slot: true });
  });

  it('an admin cancelling a booking whose deadline just passed gets it cancelled (not 409)', async () => {
    const v = await vehicle(t);
    const lapsed = await book(v, '2034-05-10', '2034-05-12', 'admin-cancel@example.test');
    await lapse(lapsed);
    const r = await t.inject({
      method: 'POST',
      url: `/wp-json/rova-rental/v1/bookings/${lapsed}/status`,
      headers: { 'x-rova-api-key': admin },
      payload: { status: 'cancelled' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data.booking.status).toBe('cancelled');
    expect(await cancelledEvents(lapsed)).toBe(1);
  });
});
