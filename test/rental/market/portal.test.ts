import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rawBooking, V1 } from '../helpers.js';
import { clearedIncome, V2, vendor, vendorVehicle } from './helpers.js';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe('vendor portal reads: own bookings, consequences, payout statements (issue 22)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 300_000);
  afterAll(async () => t?.close());

  it('GET /vendor/bookings: upcoming (pickup ahead, pending or confirmed, soonest first) or all; only own vehicles; renter name without contact data', async () => {
    const v = await vendor(t);
    const other = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    const theirs = await vendorVehicle(t, other.id);
    const later = await rawBooking(t, car, at(20), at(22), 'confirmed', {
      customer_name: 'Bo Renter',
      customer_email: 'bo@example.test',
      total: '200.00',
      currency: 'USD',
      days: 2,
    });
    const soon = await rawBooking(t, car, at(5), at(6), 'pending_payment', {
      customer_name: 'Al Renter',
      total: '100.00',
      currency: 'USD',
    });
    const past = await rawBooking(t, car, at(-30), at(-28), 'completed', {
      customer_name: 'Cy Renter',
      total: '150.00',
      currency: 'USD',
      days: 2,
    });
    await rawBooking(t, car, at(40), at(41), 'cancelled', { customer_name: 'Di Renter' });
    await rawBooking(t, theirs, at(10), at(11), 'confirmed', { customer_name: 'Not Mine' });

    const up = await t.inject({ method: 'GET', url: `${V1}/vendor/bookings`, headers: v.h });
    expect(up.statusCode).toBe(200);
    const d = up.json().data;
    expect(d.total).toBe(2);
    expect(d.items.map((b: { id: number }) => b.id)).toEqual([soon, later]);
    expect(d.items[1]).toEqual({
      id: later,
      reference: expect.any(String),
      vehicle_id: car,
      vehicle_name: expect.any(String),
      customer_name: 'Bo Renter',
      pickup_at: expect.any(String),
      return_at: expect.any(String),
      days: 2,
      total: 200,
      currency: 'USD',
      status: 'confirmed',
      cancelled_by: null,
      can_cancel: true,
    });
    expect(JSON.stringify(d)).not.toContain('bo@example.test');

    const all = (await t.inject({ method: 'GET', url: `${V1}/vendor/bookings?scope=all`, headers: v.h })).json().data;
    expect(all.total).toBe(4);
    expect(all.items.map((b: { customer_name: string }) => b.customer_name)).toEqual([
      'Di Renter',
      'Bo Renter',
      'Al Renter',
      'Cy Renter',
    ]);
    expect(all.items.find((b: { id: number }) => b.id === past).can_cancel).toBe(false);
    const done = (
      await t.inject({ method: 'GET', url: `${V1}/vendor/bookings?scope=all&status=completed`, headers: v.h })
    ).json().data;
    expect(done.items.map((b: { id: number }) => b.id)).toEqual([past]);

    expect((await t.inject({ method: 'GET', url: `${V1}/vendor/bookings`, headers: admin })).statusCode).toBe(403);
    const customer = await t.userWithKey('customer');
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/bookings`, headers: { 'x-rova-api-key': customer.key } }))
        .statusCode,
    ).toBe(403);
    expect((await t.inject({ method: 'GET', url: `${V1}/vendor/bookings?scope=soon`, headers: v.h })).statusCode).toBe(
      400,
    );
  });

  it('GET /vendor/consequences: the score after a pause, cancellation or withdrawal and the withdrawal penalty, exactly what the action then does', async () => {
    const v = await vendor(t);
    const car = await vendorVehicle(t, v.id);
    // 6 months of income: 3 × 300.00 in three months → monthly average 300.00 → first withdrawal 10 % = 30.00
    for (const m of [1, 2, 3]) await clearedIncome(t, v.id, 30_000, new Date(Date.now() - m * 30 * DAY).toISOString());
    await t.platform.db.execute(sql`UPDATE rental_vendors SET reliability_score = 100 WHERE user_id = ${v.id}`);

    const q = async (query: string, h = v.h) =>
      t.inject({ method: 'GET', url: `${V1}/vendor/consequences?${query}`, headers: h });
    // with 3 completed rentals the score has a +15 bonus: 100 − 10 + 15 is clamped to 100
    const w = (await q(`action=withdraw&vehicle_id=${car}`)).json().data;
    expect(w).toEqual({
      action: 'withdraw',
      vehicle_id: car,
      reliability_score: 100,
      reliability_score_after: 100,
      penalty: 30,
      penalty_rate_percent: 10,
      penalty_deferred: false,
      currency: 'USD',
    });

    // the withdrawal then takes exactly that penalty and leaves exactly that score
    const before = (await t.inject({ method: 'GET', url: `${V2}/ledger/summary`, headers: v.h })).json().data.balances
      .available;
    const done = await t.inject({
      method: 'POST',
      url: `${V1}/vendor/vehicles/${car}/withdraw`,
      headers: v.h,
      payload: {},
    });
    expect(done.statusCode).toBe(200);
    const after = (await t.inject({ method: 'GET', url: `${V2}/ledger/summary`, headers: v.h })).json().data.balances
      .available;
    expect(before - after).toBe(30);
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/profile`, headers: v.h })).json().data.reliability_score,
    ).toBe(100);
    // a second withdrawal in the window: 25 % of the same average
    const car2 = await vendorVehicle(t, v.id);
    expect((await q(`action=withdraw&vehicle_id=${car2}`)).json().data).toMatchObject({
      penalty: 75,
      penalty_rate_percent: 25,
    });

    // a vendor without income: a pause −2, a cancellation −5, a withdrawal −10 (penalty 0: no income to take 10 % of)
    const fresh = await vendor(t);
    const freshCar = await vendorVehicle(t, fresh.id);
    await t.platform.db.execute(sql`UPDATE rental_vendors SET reliability_score = 100 WHERE user_id = ${fresh.id}`);
    expect((await q('action=pause', fresh.h)).json().data).toEqual({
      action: 'pause',
      vehicle_id: null,
      reliability_score: 100,
      reliability_score_after: 98,
      penalty: 0,
      penalty_rate_percent: 0,
      penalty_deferred: false,
      currency: 'USD',
    });
    expect((await q('action=cancel', fresh.h)).json().data).toMatchObject({
      reliability_score: 100,
      reliability_score_after: 95,
      penalty: 0,
    });
    expect((await q(`action=withdraw&vehicle_id=${freshCar}`, fresh.h)).json().data).toMatchObject({
      reliability_score_after: 90,
      penalty: 0,
      penalty_rate_percent: 10,
    });
    expect(
      (await t.inject({ method: 'POST', url: `${V1}/vendor/vehicles/${freshCar}/pause`, headers: fresh.h })).statusCode,
    ).toBe(200);
    expect(
      (await t.inject({ method: 'GET', url: `${V1}/vendor/profile`, headers: fresh.h })).json().data.reliability_score,
    ).toBe(98);
    expect((await q('action=cancel', fresh.h)).json().data).toMatchObject({
      reliability_score: 98,
      reliability_score_after: 93,
    });
    // withdraw needs a vehicle, its own
    expect((await q('action=withdraw')).statusCode).toBe(400);
    const other = await vendor(t);
    const theirs = await vendorVehicle(t, other.id);
    expect((await q(`action=withdraw&vehicle_id=${theirs}`)).statusCode).toBe(404);
    expect((await q('action=explode')).statusCode).toBe(400);
  });

  it('GET /ledger/payouts/{id}/statement: a PDF named by its PS-YYYY-NNNN for the vendor and an administrator; 409 before approval; another vendor 404', async () => {
    const v = await vendor(t);
    await clearedIncome(t, v.id, 50_000, new Date().toISOString());
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/ledger/payouts`,
      headers: { ...v.h, 'idempotency-key': 'statement-1' },
      payload: { amount: 150 },
    });
    expect(r.statusCode).toBe(201);
    const id = r.json().data.payout.id;
    // the summary carries what a request is checked against, and the payout still open
    expect((await t.inject({ method: 'GET', url: `${V2}/ledger/summary`, headers: v.h })).json().data.payouts).toEqual({
      min_payout: 100,
      payout_freeze: false,
      open_payout_id: id,
      open_payout_no: 1,
    });
    const early = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${id}/statement`, headers: v.h });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      error_code: 'STATE_CONFLICT',
      details: { reason: 'no_statement', status: 'requested' },
    });

    const approved = (await t.inject({ method: 'POST', url: `${V2}/payouts/${id}/approve`, headers: admin })).json()
      .data.payout;
    expect(approved.statement_number).toMatch(/^PS-\d{4}-\d{4}$/);
    const pdf = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${id}/statement`, headers: v.h });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${approved.statement_number}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.subarray(-6).toString()).toContain('%%EOF');
    const other = await vendor(t);
    const byAdmin = await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${id}/statement`, headers: admin });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.headers['content-type']).toBe('application/pdf');
    expect(
      (await t.inject({ method: 'GET', url: `${V2}/ledger/summary?vendor_id=${other.id}`, headers: admin })).json().data
        .payouts,
    ).toEqual({ min_payout: 100, payout_freeze: false, open_payout_id: null, open_payout_no: null });

    expect(
      (await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/${id}/statement`, headers: other.h })).statusCode,
    ).toBe(404);
    const customer = await t.userWithKey('customer');
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `${V2}/ledger/payouts/${id}/statement`,
          headers: { 'x-rova-api-key': customer.key },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.inject({ method: 'GET', url: `${V2}/ledger/payouts/999999/statement`, headers: admin })).statusCode,
    ).toBe(404);
  });
});
