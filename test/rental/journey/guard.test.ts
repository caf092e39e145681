// @integration: concurrent holds race on the exclusion constraint
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOverlapViolation, releaseLapsedHolds } from '../../../src/modules/rental/bookings/repo.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { customer, rawBooking, V1, vehicle } from '../helpers.js';

/** The database-level double-booking guard (migration 0500): exclusion constraint over holding bookings. */
describe('double-booking guard (exclusion constraint)', () => {
  let t: TestApp;
  let h: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    h = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  }, 240_000);
  afterAll(async () => t?.close());

  const refused = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'the database must refuse the overlap').not.toBeNull();
    expect(isOverlapViolation(err)).toBe(true);
  };

  it('a direct SQL insert of an overlapping holding booking is refused by the database (23P01)', async () => {
    const v = await vehicle(t);
    await rawBooking(t, v, '2031-01-10T10:00:00Z', '2031-01-12T10:00:00Z', 'confirmed');
    await refused(rawBooking(t, v, '2031-01-11T10:00:00Z', '2031-01-13T10:00:00Z', 'pending_payment'));
    await refused(rawBooking(t, v, '2031-01-12T10:30:00Z', '2031-01-13T10:00:00Z', 'in_progress'));
    // non-holding statuses and lapsed holds may overlap
    await rawBooking(t, v, '2031-01-11T10:00:00Z', '2031-01-13T10:00:00Z', 'cancelled');
    await rawBooking(t, v, '2031-01-11T10:00:00Z', '2031-01-13T10:00:00Z', 'pending_payment', {
      payment_deadline: new Date(Date.now() - 1000).toISOString(),
    });
    const held = await t.platform.db.execute(
      sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${v} AND holds_slot`,
    );
    expect((held as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });

  it('back-to-back rentals: return 10:00, next pickup 10:00 + buffer (60 min) is allowed; inside the buffer refused', async () => {
    const v = await vehicle(t);
    await rawBooking(t, v, '2031-02-01T10:00:00Z', '2031-02-03T10:00:00Z', 'confirmed');
    await rawBooking(t, v, '2031-02-03T11:00:00Z', '2031-02-05T10:00:00Z', 'confirmed');
    await refused(rawBooking(t, v, '2031-01-30T10:00:00Z', '2031-02-01T09:30:00Z', 'confirmed'));
    // through the API too
    const c = await customer(t);
    const ok = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: h,
      payload: {
        vehicle_id: v,
        customer_id: c,
        pickup_date: '2031-02-05',
        pickup_time: '11:00',
        return_date: '2031-02-07',
        status: 'confirmed',
      },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('a lapsed pending hold is released (lazily under the vehicle lock, or by the job) and the slot can be booked', async () => {
    const v = await vehicle(t);
    const c = await customer(t);
    const a = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: h,
      payload: { vehicle_id: v, customer_id: c, pickup_date: '2031-03-01', return_date: '2031-03-03' },
    });
    expect(a.statusCode).toBe(201);
    await t.platform.db.execute(
      sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 minute', holds_slot = true WHERE id = ${a.json().data.id}`,
    );
    // the trigger recomputed holds_slot on that write already; force the "not yet released" state the constraint sees
    await t.platform.db.execute(sql`ALTER TABLE rental_bookings DISABLE TRIGGER rental_bookings_hold`);
    await t.platform.db.execute(sql`UPDATE rental_bookings SET holds_slot = true WHERE id = ${a.json().data.id}`);
    await t.platform.db.execute(sql`ALTER TABLE rental_bookings ENABLE TRIGGER rental_bookings_hold`);
    const b = await t.inject({
      method: 'POST',
      url: `${V1}/bookings`,
      headers: h,
      payload: { vehicle_id: v, customer_id: c, pickup_date: '2031-03-02', return_date: '2031-03-04' },
    });
    expect(b.statusCode).toBe(201);
    expect(await releaseLapsedHolds(t.platform.db)).toBe(0);
  });

  it('200 concurrent creates for one vehicle with overlapping slots → exactly one holds it', async () => {
    const v = await vehicle(t);
    const c = await customer(t);
    const rs = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.inject({
          method: 'POST',
          url: `${V1}/bookings`,
          headers: h,
          payload: {
            vehicle_id: v,
            customer_id: c,
            pickup_date: `2031-04-${String(10 + (i % 5)).padStart(2, '0')}`,
            return_date: '2031-04-20',
            status: i % 2 ? 'confirmed' : 'pending_payment',
          },
        }),
      ),
    );
    const codes = rs.map((r) => r.statusCode);
    const all = codes;
    expect(all.filter((x) => x === 201)).toHaveLength(1);
    // every loser answers 409 at once, on PostgreSQL too: a visibly taken slot fails before the vehicle lock
    // (no queueing on its row lock or the pool), a racing one after the lock
    expect(all.filter((x) => x === 409)).toHaveLength(199);
    for (const r of rs) if (r.statusCode === 409) expect(r.json().error_code).toBe('VEHICLE_NOT_AVAILABLE');
    const n = await t.platform.db.execute(
      sql`SELECT count(*)::int AS n FROM rental_bookings WHERE vehicle_id = ${v} AND holds_slot`,
    );
    expect((n as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  }, 240_000);
});
