// @integration: status moves run concurrently under the booking lock with ledger side effects
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { BOOKING_STATUSES, canMove } from '../../src/modules/rental/bookings/status.js';
import { rawBooking, V1, vehicle } from './helpers.js';

// Design §3, written out independently of the implementation's table.
const ALLOWED = new Set([
  'draft>pending_payment',
  'draft>cancelled',
  'pending_payment>confirmed',
  'pending_payment>cancelled',
  'pending>confirmed',
  'pending>completed',
  'pending>cancelled',
  'confirmed>in_progress',
  'confirmed>completed',
  'confirmed>cancelled',
  'confirmed>no_show',
  'confirmed>pending',
  'in_progress>completed',
  'in_progress>cancelled',
  'completed>refunded',
  'completed>in_progress',
  'cancelled>pending_payment',
  'cancelled>confirmed',
  'cancelled>pending',
  'no_show>cancelled',
]);
const PAIRS = BOOKING_STATUSES.flatMap((from) => BOOKING_STATUSES.map((to) => [from, to] as const));

describe('booking status machine (unit)', () => {
  it.each(PAIRS)('%s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(ALLOWED.has(`${from}>${to}`));
  });
});

describe('POST /bookings/{id}/status (every pair over HTTP)', () => {
  let t: TestApp;
  let admin: string;
  let vid: number;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
    vid = await vehicle(t);
  });
  afterAll(async () => t?.close());

  it('allows exactly the design moves; others → 409 STATE_CONFLICT; unknown → 400; missing → 404', async () => {
    let slot = 0;
    for (const [from, to] of PAIRS) {
      slot += 1;
      const start = new Date(Date.UTC(2030, 0, 1) + slot * 3 * 86_400_000);
      const id = await rawBooking(
        t,
        vid,
        start.toISOString(),
        new Date(start.getTime() + 86_400_000).toISOString(),
        from,
      );
      const r = await t.inject({
        method: 'POST',
        url: `${V1}/bookings/${id}/status`,
        headers: { 'x-rova-api-key': admin },
        payload: { status: to },
      });
      if (ALLOWED.has(`${from}>${to}`)) {
        expect(r.statusCode, `${from}>${to}`).toBe(200);
        expect(r.json().data.booking.status).toBe(to);
        expect(r.json().data.previous_status).toBe(from);
      } else {
        expect(r.statusCode, `${from}>${to}`).toBe(409);
        expect(r.json()).toMatchObject({ success: false, error_code: 'STATE_CONFLICT' });
      }
    }
    const bad = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/1/status`,
      headers: { 'x-rova-api-key': admin },
      payload: { status: 'teleported' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error_code).toBe('INVALID_PARAMS');
    const missing = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/999999/status`,
      headers: { 'x-rova-api-key': admin },
      payload: { status: 'cancelled' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error_code).toBe('RESOURCE_NOT_FOUND');
  });

  it('re-entering a holding status re-checks the slot: cancelled → confirmed over a confirmed booking → 409 VEHICLE_NOT_AVAILABLE', async () => {
    const v = await vehicle(t);
    await rawBooking(t, v, '2031-05-01T10:00:00Z', '2031-05-03T10:00:00Z', 'confirmed');
    const c = await rawBooking(t, v, '2031-05-02T10:00:00Z', '2031-05-04T10:00:00Z', 'cancelled');
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/${c}/status`,
      headers: { 'x-rova-api-key': admin },
      payload: { status: 'confirmed' },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().error_code).toBe('VEHICLE_NOT_AVAILABLE');
  });
  it('a pending_payment booking past its payment deadline no longer holds the slot: confirming it over a newer booking → 409', async () => {
    const v = await vehicle(t);
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const lapsed = await rawBooking(t, v, '2032-05-01T10:00:00Z', '2032-05-03T10:00:00Z', 'pending_payment', {
      payment_deadline: past,
    });
    await rawBooking(t, v, '2032-05-02T10:00:00Z', '2032-05-04T10:00:00Z', 'confirmed');
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/${lapsed}/status`,
      headers: { 'x-rova-api-key': admin },
      payload: { status: 'confirmed' },
    });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ success: false, error_code: 'VEHICLE_NOT_AVAILABLE' });
    // still within its deadline, it held the slot all along: confirming needs no re-check
    const v2 = await vehicle(t);
    const live = await rawBooking(t, v2, '2032-06-01T10:00:00Z', '2032-06-03T10:00:00Z', 'pending_payment', {
      payment_deadline: future,
    });
    const ok = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/${live}/status`,
      headers: { 'x-rova-api-key': admin },
      payload: { status: 'confirmed' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.booking.status).toBe('confirmed');
  });

  it('concurrent moves of two overlapping cancelled bookings to confirmed: exactly one wins', async () => {
    const v = await vehicle(t);
    const a = await rawBooking(t, v, '2033-05-01T10:00:00Z', '2033-05-03T10:00:00Z', 'cancelled');
    const b = await rawBooking(t, v, '2033-05-02T10:00:00Z', '2033-05-04T10:00:00Z', 'cancelled');
    const move = (id: number) =>
      t.inject({
        method: 'POST',
        url: `${V1}/bookings/${id}/status`,
        headers: { 'x-rova-api-key': admin },
        payload: { status: 'confirmed' },
      });
    const codes = (
      await Promise.all([
        move(a),
        move(b),
        t.inject({
          method: 'PUT',
          url: `${V1}/bookings/${a}`,
          headers: { 'x-rova-api-key': admin },
          payload: { notes: 'n' },
        }),
      ])
    ).map((r) => r.statusCode);
    expect(codes.slice(0, 2).sort()).toEqual([200, 409]);
    expect(codes[2]).toBe(200);
  });
});
