import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows } from '../../src/platform/db/types.js';
import { vehicle } from '../rental/helpers.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';

// Issue 36.6: a customer's change of dates sent at once with what else moves the same booking or the same vehicle,
// on two nodes of one deployment. The change decides under the booking's lock (both vehicles' on a move), so a
// payment either lands before it (the change makes the difference due) or after it (the payment asks the new
// total); a new booking of the new dates and the change never both win.
const V2 = '/wp-json/rova-rental/v2';
const REPEAT = 15;
let n: TwoNodes;
let admin: Record<string, string>;
beforeAll(async () => {
  n = await twoNodes({ RENTAL_WRITE_RATE_LIMIT: '1000000', RENTAL_PUBLIC_RATE_LIMIT: '1000000' });
  admin = { 'x-rova-api-key': (await n.a.userWithKey('administrator')).key };
  const until = Date.now() + 20_000;
  while (!(holdingIndexOf(n.a.platform).ready && holdingIndexOf(n.b.platform).ready) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));
}, 240_000);
afterAll(async () => {
  await n?.close();
});

let year = 2040;
const date = (y: number, d: number) => `${y}-05-${String(d).padStart(2, '0')}`;

/** A new customer's 2-day booking (100.00 a day) of a new vehicle, waiting for its offline payment. */
async function unpaid(): Promise<{ id: number; v: number; y: number; customer: Record<string, string> }> {
  const v = await vehicle(n.a);
  const customer = { 'x-rova-api-key': (await n.a.userWithKey('customer')).key };
  year += 1;
  const created = await n.a.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: customer,
    payload: {
      vehicle_id: v,
      pickup_date: date(year, 1),
      return_date: date(year, 3),
      payment_method: 'offline',
      payment_plan: 'full',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json().data.booking.id as number, v, y: year, customer };
}

/** What the booking's payments hold and ask, against its total. */
const moneyOf = async (id: number) => {
  const [b] = await rows<{ total: string; payment_status: string; status: string }>(
    n.a.platform.db,
    sql`SELECT total::text, payment_status, status FROM rental_bookings WHERE id = ${id}`,
  );
  const pays = await rows<{ amount: string; status: string; refunded_amount: string }>(
    n.a.platform.db,
    sql`SELECT amount::text, status, refunded_amount::text FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  );
  const kept = pays
    .filter((x) => x.status === 'succeeded')
    .reduce((a, x) => a + Number(x.amount) - Number(x.refunded_amount), 0);
  const asked = pays.filter((x) => x.status === 'pending').reduce((a, x) => a + Number(x.amount), 0);
  return { ...b!, kept, asked };
};

describe('a change of dates racing a payment of the same booking, over two nodes', () => {
  it(`${REPEAT} rounds: what is paid plus what is asked is the new total, whichever lands first`, async () => {
    const outcomes = new Map<string, number>();
    for (let i = 0; i < REPEAT; i++) {
      const b = await unpaid();
      const [changed, paid] = await Promise.all([
        n.a.inject({
          method: 'POST',
          url: `${V2}/my/bookings/${b.id}/change`,
          headers: b.customer,
          payload: { pickup_date: date(b.y, 1), return_date: date(b.y, 4) },
        }),
        n.b.inject({ method: 'POST', url: `${V2}/bookings/${b.id}/mark-paid`, headers: admin }),
      ]);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(paid.statusCode, paid.body).toBe(200);
      const m = await moneyOf(b.id);
      const key = `${changed.json().data.payment_status} / ${paid.json().data.outcome} → ${m.payment_status}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      expect(m.total, key).toBe('300.00');
      expect(m.status, key).toBe('confirmed');
      // paid first: 200 kept, the difference asked; changed first: the payment paid the new total
      if (m.payment_status === 'partially_paid')
        expect({ kept: m.kept, asked: m.asked }, key).toEqual({ kept: 200, asked: 100 });
      else
        expect({ payment_status: m.payment_status, kept: m.kept, asked: m.asked }, key).toEqual({
          payment_status: 'paid',
          kept: 300,
          asked: 0,
        });
    }
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
    expect((await verifyIntegrity(n.a.platform.db)).findings).toEqual([]);
  }, 300_000);
});

describe('a change of dates racing another customer’s booking of the new dates, over two nodes', () => {
  it(`${REPEAT} rounds: exactly one wins, the vehicle is never held twice`, async () => {
    const outcomes = new Map<string, number>();
    for (let i = 0; i < REPEAT; i++) {
      const b = await unpaid();
      const rival = { 'x-rova-api-key': (await n.b.userWithKey('customer')).key };
      const [changed, created] = await Promise.all([
        n.a.inject({
          method: 'POST',
          url: `${V2}/my/bookings/${b.id}/change`,
          headers: b.customer,
          payload: { pickup_date: date(b.y, 10), return_date: date(b.y, 12) },
        }),
        n.b.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: rival,
          payload: {
            vehicle_id: b.v,
            pickup_date: date(b.y, 11),
            return_date: date(b.y, 13),
            payment_method: 'offline',
            payment_plan: 'full',
          },
        }),
      ]);
      const key = `change ${changed.statusCode} / create ${created.statusCode}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      expect([key === 'change 200 / create 409', key === 'change 409 / create 201']).toContain(true);
      const loser = changed.statusCode === 409 ? changed : created;
      expect(loser.json()).toMatchObject({ success: false, error_code: 'VEHICLE_NOT_AVAILABLE' });
      const overlaps = await rows<{ a: string; b: string }>(
        n.a.platform.db,
        sql`SELECT x.id AS a, y.id AS b FROM rental_bookings x JOIN rental_bookings y
              ON x.vehicle_id = y.vehicle_id AND x.id < y.id AND tstzrange(x.pickup_at, x.return_at) && tstzrange(y.pickup_at, y.return_at)
            WHERE x.vehicle_id = ${b.v} AND x.status IN ('pending_payment', 'pending', 'confirmed') AND y.status IN ('pending_payment', 'pending', 'confirmed')`,
      );
      expect(overlaps, key).toEqual([]);
      // the loser's booking is as it was: the change refused leaves the old dates and price
      if (changed.statusCode === 409) expect((await moneyOf(b.id)).total).toBe('200.00');
    }
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
    expect((await verifyIntegrity(n.a.platform.db)).findings).toEqual([]);
  }, 300_000);
});

describe('two changes moving bookings between two vehicles in opposite directions, over two nodes', () => {
  it(`${REPEAT} rounds: both vehicles are locked in id order — no deadlock, both moves land, never an overlap`, async () => {
    for (let i = 0; i < REPEAT; i++) {
      const x = await unpaid();
      const y = await unpaid();
      // y's vehicle, moved to x's year: each booking moves onto the other's vehicle, on dates free there
      const [toY, toX] = await Promise.all([
        n.a.inject({
          method: 'POST',
          url: `${V2}/my/bookings/${x.id}/change`,
          headers: x.customer,
          payload: { pickup_date: date(y.y, 20), return_date: date(y.y, 22), vehicle_id: y.v },
        }),
        n.b.inject({
          method: 'POST',
          url: `${V2}/my/bookings/${y.id}/change`,
          headers: y.customer,
          payload: { pickup_date: date(x.y, 20), return_date: date(x.y, 22), vehicle_id: x.v },
        }),
      ]);
      expect(toY.statusCode, toY.body).toBe(200);
      expect(toX.statusCode, toX.body).toBe(200);
      const held = await rows<{ id: string; vehicle_id: string }>(
        n.a.platform.db,
        sql`SELECT id::text, vehicle_id::text FROM rental_bookings WHERE id IN (${x.id}, ${y.id}) ORDER BY id`,
      );
      expect(held).toEqual([
        { id: String(x.id), vehicle_id: String(y.v) },
        { id: String(y.id), vehicle_id: String(x.v) },
      ]);
    }
    expect((await verifyIntegrity(n.a.platform.db)).findings).toEqual([]);
  }, 300_000);
});
