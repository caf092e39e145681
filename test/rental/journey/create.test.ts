// @integration: concurrent creates race for one slot: the exclusion constraint and idempotency keys under real concurrency
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rule, vehicle } from '../helpers.js';

const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';

describe('POST /booking/create, offline payment, my bookings, cancel', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
    await rule(t, { name: 'VAT', kind: 'tax', percent: '10' });
  }, 240_000);
  afterAll(async () => t?.close());

  const customerKey = async () => (await t.userWithKey('customer')).key;
  const create = (key: string, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
    t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': key, ...extra },
      payload: body,
    });
  const body = (v: number, d1: string, d2: string) => ({
    vehicle_id: v,
    pickup_date: d1,
    return_date: d2,
    payment_method: 'offline',
    payment_plan: 'deposit',
  });

  it('creates pending_payment with a 15-minute hold, order lines, offline instructions and a booking.created event', async () => {
    const v = await vehicle(t, { price_per_day: '100.00', deposit_percent: '20' });
    const key = await customerKey();
    const before = Date.now();
    const r = await create(key, { ...body(v, '2032-01-10', '2032-01-12'), total: 1 } as Record<string, unknown>);
    expect(r.statusCode).toBe(400); // client prices are not even accepted
    const ok = await create(key, body(v, '2032-01-10', '2032-01-12'));
    expect(ok.statusCode).toBe(201);
    const d = ok.json().data;
    expect(d).toMatchObject({
      amount_due: 44,
      currency: 'USD',
      booking: { status: 'pending_payment', vehicle_id: v, total: 220, deposit: 44 },
      payment: { provider: 'offline' },
    });
    expect(d.payment.instructions).toContain(d.booking.reference);
    const deadline = Date.parse(d.booking.payment_deadline);
    expect(deadline - before).toBeGreaterThan(14 * 60_000);
    expect(deadline - before).toBeLessThan(16 * 60_000);
    const mine = await t.inject({
      method: 'GET',
      url: `${V2}/my/bookings/${d.booking.id}`,
      headers: { 'x-rova-api-key': key },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.order.lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
      ['rental', 200],
      ['tax', 20],
      ['deposit', 44],
    ]);
    const ev = await t.platform.db.execute(
      sql`SELECT payload FROM rova_events WHERE type = 'booking.created' AND payload->'data'->>'id' = ${String(d.booking.id)}`,
    );
    expect((ev as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    // the slot is held: a second customer gets 409
    expect((await create(await customerKey(), body(v, '2032-01-11', '2032-01-13'))).json().error_code).toBe(
      'VEHICLE_NOT_AVAILABLE',
    );
  });

  it('Idempotency-Key: replay → stored answer; other body → 422; other caller same key → independent', async () => {
    const v = await vehicle(t);
    const v2 = await vehicle(t);
    const key = await customerKey();
    const a = await create(key, body(v, '2032-02-01', '2032-02-03'), { 'idempotency-key': 'order-1' });
    expect(a.statusCode).toBe(201);
    const again = await create(key, body(v, '2032-02-01', '2032-02-03'), { 'idempotency-key': 'order-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(a.json());
    const other = await create(key, body(v, '2032-02-05', '2032-02-06'), { 'idempotency-key': 'order-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ success: false, error_code: 'IDEMPOTENCY_KEY_MISMATCH' });
    const someoneElse = await create(await customerKey(), body(v2, '2032-02-01', '2032-02-03'), {
      'idempotency-key': 'order-1',
    });
    expect(someoneElse.statusCode).toBe(201);
    expect(someoneElse.json().data.booking.id).not.toBe(a.json().data.booking.id);
  });

  it('Idempotency-Key in flight → 409', async () => {
    const v = await vehicle(t);
    const key = await customerKey();
    const rs = await Promise.all(
      [1, 2, 3].map(() => create(key, body(v, '2032-03-01', '2032-03-03'), { 'idempotency-key': 'same' })),
    );
    const codes = rs.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of rs) if (r.statusCode === 409) expect(r.json().details.reason).toBe('idempotency_key_in_flight');
    const ids = new Set(rs.filter((r) => r.statusCode === 201).map((r) => r.json().data.booking.id));
    expect(ids.size).toBe(1);
  });

  it('200 concurrent v2 creates for one vehicle and overlapping slots → exactly one booking holds it', async () => {
    const v = await vehicle(t);
    const keys = await Promise.all(Array.from({ length: 4 }, () => customerKey()));
    const rs = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        create(keys[i % 4]!, body(v, `2032-04-${String(10 + (i % 5)).padStart(2, '0')}`, '2032-04-20')),
      ),
    );
    const all = rs.map((r) => r.statusCode);
    expect(all.filter((x) => x === 201)).toHaveLength(1);
    // every loser answers 409 at once, on PostgreSQL too: a visibly taken slot fails before the vehicle lock
    // (no queueing on its row lock or the pool), a racing one after the lock
    expect(all.filter((x) => x === 409)).toHaveLength(199);
    const n = await t.platform.db.execute(
      sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${v} AND holds_slot`,
    );
    expect((n as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  }, 300_000);

  it('hold expiry frees the slot; admin marks an offline payment paid → confirmed; a late payment on a taken slot → refunded + cancelled', async () => {
    const v = await vehicle(t);
    const first = await customerKey();
    const a = (await create(first, body(v, '2032-05-01', '2032-05-03'))).json().data.booking;
    await t.platform.db.execute(
      sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 second' WHERE id = ${a.id}`,
    );
    const second = await customerKey();
    const b = await create(second, body(v, '2032-05-02', '2032-05-04'));
    expect(b.statusCode).toBe(201);
    const paidB = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${b.json().data.booking.id}/mark-paid`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(paidB.json().data).toMatchObject({
      outcome: 'confirmed',
      booking: { status: 'confirmed', payment_status: 'paid' },
    }); // no deposit asked: the full amount was due
    const again = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${b.json().data.booking.id}/mark-paid`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(again.statusCode).toBe(409);
    const late = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${a.id}/mark-paid`,
      headers: { 'x-rova-api-key': admin },
    });
    expect(late.json().data).toMatchObject({
      outcome: 'refunded_slot_taken',
      booking: { status: 'cancelled', payment_status: 'refunded' },
    });
    expect(late.json().data.booking.notes).toContain('refunded');
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V2}/bookings/${a.id}/mark-paid`,
          headers: { 'x-rova-api-key': first },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('my bookings: own list and detail; another customer’s → 404; cancel free before the deadline, fee after it', async () => {
    const v = await vehicle(t, { price_per_day: '100.00' });
    const me = await customerKey();
    const other = await customerKey();
    const far = (await create(me, { ...body(v, '2032-06-01', '2032-06-03'), payment_plan: 'full' })).json().data
      .booking;
    await t.inject({ method: 'POST', url: `${V2}/bookings/${far.id}/mark-paid`, headers: { 'x-rova-api-key': admin } });
    const list = await t.inject({ method: 'GET', url: `${V2}/my/bookings`, headers: { 'x-rova-api-key': me } });
    expect(list.json().data).toMatchObject({ total: 1, page: 1, per_page: 20 });
    const vname = (
      (await t.platform.db.execute(sql`SELECT name FROM rental_vehicles WHERE id = ${v}`)) as unknown as {
        rows: { name: string }[];
      }
    ).rows[0]!.name;
    expect(list.json().data.items[0]).toMatchObject({ id: far.id, vehicle_name: vname });
    // by reference (a mail's link to a booking past the first page): the own one, never another's
    const byRef = async (key: string, ref: string) =>
      (
        await t.inject({
          method: 'GET',
          url: `${V2}/my/bookings?reference=${encodeURIComponent(ref)}`,
          headers: { 'x-rova-api-key': key },
        })
      ).json().data;
    expect(await byRef(me, far.reference)).toMatchObject({ total: 1, items: [{ id: far.id }] });
    expect(await byRef(other, far.reference)).toMatchObject({ total: 0, items: [] });
    expect(await byRef(me, 'RB-NOSUCHREF')).toMatchObject({ total: 0, items: [] });
    // the quote before cancelling: free until 24 h before pickup, the whole payment back
    const quote = (
      await t.inject({ method: 'GET', url: `${V2}/my/bookings/${far.id}`, headers: { 'x-rova-api-key': me } })
    ).json().data;
    expect(quote.vehicle_name).toBe(vname);
    expect(quote.cancellation).toEqual({
      cancellable: true,
      free: true,
      fee: 0,
      refund: 220,
      currency: far.currency,
      free_cancellation_until: new Date(Date.parse(far.pickup_at) - 24 * 3_600_000).toISOString(),
    });
    expect(
      (await t.inject({ method: 'GET', url: `${V2}/my/bookings/${far.id}`, headers: { 'x-rova-api-key': other } }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${V2}/my/bookings/${far.id}/cancel`,
          headers: { 'x-rova-api-key': other },
        })
      ).statusCode,
    ).toBe(404);
    const c = await t.inject({
      method: 'POST',
      url: `${V2}/my/bookings/${far.id}/cancel`,
      headers: { 'x-rova-api-key': me },
    });
    expect(c.statusCode).toBe(200);
    expect(c.json().data).toMatchObject({
      fee: 0,
      refund: 220,
      booking: { status: 'cancelled', payment_status: 'refunded' },
    });
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/my/bookings/${far.id}/cancel`, headers: { 'x-rova-api-key': me } }))
        .statusCode,
    ).toBe(409);
    // after the deadline (pickup in 2 hours): 20 % of what was paid is kept
    const soon = new Date(Date.now() + 2 * 3_600_000);
    const d = soon.toISOString().slice(0, 10);
    const hh = soon.toISOString().slice(11, 13) + ':00';
    const near = await create(me, {
      ...body(v, d, '2033-01-01'),
      return_date: new Date(soon.getTime() + 2 * 86_400_000).toISOString().slice(0, 10),
      pickup_time: hh,
      return_time: hh,
      payment_plan: 'full',
    });
    expect(near.statusCode).toBe(201);
    const nb = near.json().data;
    await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${nb.booking.id}/mark-paid`,
      headers: { 'x-rova-api-key': admin },
    });
    const fee = Math.round(nb.amount_due * 20) / 100;
    // the quote says what the cancel then does: 20 % kept, the rest refunded
    const lateQuote = (
      await t.inject({ method: 'GET', url: `${V2}/my/bookings/${nb.booking.id}`, headers: { 'x-rova-api-key': me } })
    ).json().data.cancellation;
    expect(lateQuote).toMatchObject({
      cancellable: true,
      free: false,
      fee,
      refund: Math.round((nb.amount_due - fee) * 100) / 100,
    });
    const late = await t.inject({
      method: 'POST',
      url: `${V2}/my/bookings/${nb.booking.id}/cancel`,
      headers: { 'x-rova-api-key': me },
    });
    expect(late.json().data).toMatchObject({
      fee,
      refund: lateQuote.refund,
      booking: { status: 'cancelled', payment_status: 'partially_refunded' },
    });
    const after = (
      await t.inject({ method: 'GET', url: `${V2}/my/bookings/${nb.booking.id}`, headers: { 'x-rova-api-key': me } })
    ).json().data.cancellation;
    expect(after.cancellable).toBe(false);
  });

  it('cookie + nonce customer can book; staff API key acts for a customer; bad input sweep → 4xx never 500', async () => {
    const v = await vehicle(t);
    await t.inject({
      method: 'POST',
      url: `${R}/auth/register`,
      payload: { email: 'web@example.test', password: 'web password 1' },
    });
    const login = await t.inject({
      method: 'POST',
      url: `${R}/auth/login`,
      payload: { login: 'web@example.test', password: 'web password 1' },
    });
    const h = {
      cookie: `rova_session=${login.cookies.find((c) => c.name === 'rova_session')!.value}`,
      'x-wp-nonce': login.json().nonce as string,
    };
    const web = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: h,
      payload: body(v, '2032-07-01', '2032-07-02'),
    });
    expect(web.statusCode).toBe(201);
    expect(web.json().data.booking.customer_email).toBe('web@example.test');
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/booking/create`, payload: body(v, '2032-07-05', '2032-07-06') }))
        .statusCode,
    ).toBe(401);
    const staff = await create(admin, body(v, '2032-07-10', '2032-07-11'));
    expect(staff.json()).toMatchObject({ error_code: 'INVALID_PARAMS', details: { field: 'customer' } });
    const acting = await create(admin, {
      ...body(v, '2032-07-10', '2032-07-11'),
      customer: { name: 'Phone Order', email: 'phone@example.test' },
    });
    expect(acting.statusCode).toBe(201);
    const key = await customerKey();
    const bad: unknown[] = [
      {},
      [],
      'x',
      { ...body(v, '2032-08-01', '2032-08-02'), payment_method: 'cash' },
      { ...body(v, '2032-08-01', '2032-08-02'), payment_plan: 'half' },
      { ...body(v, '2032-08-01', '2032-08-02'), vehicle_id: -1 },
      { ...body(v, '2032-08-01', '2032-08-02'), pickup_date: '2032-8-1' },
      { ...body(v, '2032-08-03', '2032-08-02') },
      { ...body(9_999_999, '2032-08-01', '2032-08-02') },
      { ...body(v, '2032-08-01', '2032-08-02'), customer: { name: 'x', email: 'y@z.io' } },
      { ...body(v, '2032-08-01', '2032-08-02'), addons: ['nope'] },
    ];
    for (const b of bad) {
      const r = await t.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': key },
        payload: b as object,
      });
      expect(r.statusCode, JSON.stringify(b)).toBeGreaterThanOrEqual(400);
      expect(r.statusCode).toBeLessThan(500);
    }
    for (const url of [
      '/my/bookings?page=0',
      '/my/bookings/abc',
      '/my/bookings/0',
      '/my/bookings/99999999999999999999',
    ]) {
      const r = await t.inject({ method: 'GET', url: V2 + url, headers: { 'x-rova-api-key': key } });
      expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(r.statusCode).toBeLessThan(500);
    }
    const r = await create(key, body(v, '2032-08-01', '2032-08-02'), { 'idempotency-key': 'x'.repeat(300) });
    expect(r.statusCode).toBe(400);
  });
});
