import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHoldExpiry } from '../../src/modules/rental/bookings/jobs.js';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows } from '../../src/platform/db/types.js';
import { vehicle } from '../rental/helpers.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { sendStripeWebhook, startStripe, stripeEvent } from '../rental/journey/stripe-server.js';

// Issue 19 item 2: a customer's cancel racing the payment for the same booking, on two nodes of one deployment.
// Whatever the order, the money is never kept: a cancelled booking has no succeeded payment left unrefunded.
const V2 = '/wp-json/rova-rental/v2';
const REPEAT = 20;
const SK = 'sk_test_rovaRaceFake123';
const WHSEC = 'whsec_rovaRaceWebhookSecret';
let n: TwoNodes;
let fake: Awaited<ReturnType<typeof startStripe>>;
beforeAll(async () => {
  fake = await startStripe({ secretKey: SK });
  n = await twoNodes({
    RENTAL_WRITE_RATE_LIMIT: '1000000',
    BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
    STRIPE_SECRET_KEY: SK,
    STRIPE_WEBHOOK_SECRET: WHSEC,
    STRIPE_API_BASE: fake.url,
  });
}, 240_000);
afterAll(async () => {
  await n?.close();
  await fake?.close();
});

/** Succeeded payments of the booking that are neither refunded nor owed a refund (must be none once it is cancelled). */
const keptMoney = (id: number) =>
  rows<{ id: number }>(
    n.a.platform.db,
    sql`SELECT p.id FROM rental_payments p WHERE p.booking_id = ${id} AND p.status = 'succeeded'
  AND p.refunded_amount < p.amount AND NOT EXISTS (SELECT 1 FROM rental_refunds r WHERE r.payment_id = p.id)`,
  );
const statusOf = async (id: number) =>
  (await rows<{ status: string }>(n.a.platform.db, sql`SELECT status FROM rental_bookings WHERE id = ${id}`))[0]!
    .status;
let year = 2040;

/**
 * A new customer's booking of a new vehicle on node a, paid in full by `method`, far ahead (so a cancel is free and
 * refunds the whole payment).
 */
async function freshBooking(method: 'offline' | 'stripe'): Promise<{ id: number; customer: string }> {
  const v = await vehicle(n.a);
  const customer = (await n.a.userWithKey('customer')).key;
  year += 1;
  const created = await n.a.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: { 'x-rova-api-key': customer },
    payload: {
      vehicle_id: v,
      pickup_date: `${year}-05-01`,
      return_date: `${year}-05-03`,
      payment_method: method,
      payment_plan: 'full',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json().data.booking.id as number, customer };
}

describe('cancel racing a payment (mark-paid) over two nodes', () => {
  it(`${REPEAT} rounds: never cancelled with a succeeded payment that is not refunded`, async () => {
    const { a, b } = n;
    const admin = (await a.userWithKey('administrator')).key;
    const outcomes = new Map<string, number>();
    for (let i = 0; i < REPEAT; i++) {
      const { id, customer } = await freshBooking('offline');
      const [cancel, paid] = await Promise.all([
        a.inject({ method: 'POST', url: `${V2}/my/bookings/${id}/cancel`, headers: { 'x-rova-api-key': customer } }),
        b.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: { 'x-rova-api-key': admin } }),
      ]);
      expect([200, 409]).toContain(cancel.statusCode);
      expect([200, 409]).toContain(paid.statusCode);
      const key = `cancel ${cancel.statusCode} / mark-paid ${paid.statusCode} ${paid.statusCode === 200 ? paid.json().data.outcome : ''}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      const st = await statusOf(id);
      if (st === 'cancelled') expect(await keptMoney(id), `round ${i}: ${key}`).toEqual([]);
      else expect(st, `round ${i}: ${key}`).toBe('confirmed');
    }
    // both orders happened at least once over the rounds (the race was real), or every round cancelled first
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
    // what `rova verify` checks: the ledger and every booking invariant, clean after the races
    expect((await verifyIntegrity(a.platform.db)).findings).toEqual([]);
  }, 300_000);
});

describe('every path that moves a booking or its payments, racing over two nodes', () => {
  it(`${REPEAT} rounds: a Stripe payment_intent.succeeded racing the customer's cancel never leaves the money kept`, async () => {
    const { a, b } = n;
    const outcomes = new Map<string, number>();
    for (let i = 0; i < REPEAT; i++) {
      const { id, customer } = await freshBooking('stripe');
      const pi = [...fake.intents.values()].find((x) => x.metadata.booking_id === String(id))!;
      const payload = stripeEvent('payment_intent.succeeded', fake.succeed(pi.id));
      const [cancel, hook] = await Promise.all([
        a.inject({ method: 'POST', url: `${V2}/my/bookings/${id}/cancel`, headers: { 'x-rova-api-key': customer } }),
        sendStripeWebhook(b, payload, WHSEC),
      ]);
      expect([200, 409]).toContain(cancel.statusCode);
      expect(hook.statusCode, hook.body).toBe(200);
      const key = `cancel ${cancel.statusCode} / webhook ${hook.json().data.outcome}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      const st = await statusOf(id);
      if (st === 'cancelled') expect(await keptMoney(id), `round ${i}: ${key}`).toEqual([]);
      else expect(st, `round ${i}: ${key}`).toBe('confirmed');
    }
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
    expect((await verifyIntegrity(a.platform.db)).findings).toEqual([]);
  }, 300_000);

  it(`${REPEAT} rounds: an administrator's cancel racing mark-paid ends cancelled with the payment refunded exactly once`, async () => {
    const { a, b } = n;
    const admin = (await a.userWithKey('administrator')).key;
    for (let i = 0; i < REPEAT; i++) {
      const { id } = await freshBooking('offline');
      const [cancel, paid] = await Promise.all([
        a.inject({
          method: 'POST',
          url: `/wp-json/rova-rental/v1/bookings/${id}/status`,
          headers: { 'x-rova-api-key': admin },
          payload: { status: 'cancelled' },
        }),
        b.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: { 'x-rova-api-key': admin } }),
      ]);
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(await statusOf(id)).toBe('cancelled');
      const money = await rows<{ status: string; refunds: number }>(
        a.platform.db,
        sql`SELECT p.status, (SELECT count(*)::int FROM rental_refunds r WHERE r.payment_id = p.id) AS refunds
        FROM rental_payments p WHERE p.booking_id = ${id}`,
      );
      expect(money, `round ${i}: mark-paid ${paid.json().data.outcome}`).toEqual([{ status: 'refunded', refunds: 1 }]);
    }
    expect((await verifyIntegrity(a.platform.db)).findings).toEqual([]);
  }, 300_000);

  it(`${REPEAT} rounds: the expiry job racing mark-paid on a lapsed hold: whichever runs first, the late payment takes its still-free slot back (confirmed, payment succeeded)`, async () => {
    const { a, b } = n;
    const admin = (await a.userWithKey('administrator')).key;
    const outcomes = new Map<string, number>();
    for (let i = 0; i < REPEAT; i++) {
      const { id } = await freshBooking('offline');
      // the payment deadline has just passed: the job and the late payment meet
      await a.platform.db.execute(
        sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 second' WHERE id = ${id}`,
      );
      const [expired, paid] = await Promise.all([
        runHoldExpiry(a.platform),
        b.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: { 'x-rova-api-key': admin } }),
      ]);
      expect(paid.statusCode, paid.body).toBe(200);
      const key = `expiry cancelled ${expired} / mark-paid ${paid.json().data.outcome}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      const st = await statusOf(id);
      // nobody else wanted the slot: the late payment takes it back either way
      expect(st, `round ${i}: ${key}`).toBe('confirmed');
      expect(await rows(a.platform.db, sql`SELECT status FROM rental_payments WHERE booking_id = ${id}`), key).toEqual([
        { status: 'succeeded' },
      ]);
    }
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
    expect((await verifyIntegrity(a.platform.db)).findings).toEqual([]);
  }, 300_000);
});

describe('the one-statement booking racing the paths that free or take its slot, over two nodes', () => {
  const body = (v: number, y: number) => ({
    vehicle_id: v,
    pickup_date: `${y}-05-02`,
    return_date: `${y}-05-04`,
    payment_method: 'offline',
    payment_plan: 'deposit',
  });
  const holders = (v: number) =>
    rows<{ id: number }>(
      n.a.platform.db,
      sql`SELECT id::int AS id FROM rental_bookings WHERE vehicle_id = ${v} AND holds_slot AND status <> 'cancelled'`,
    );

  it(`${REPEAT} rounds: two customers on two nodes book the same slot at once → exactly one 201, one 409 booked, one holder`, async () => {
    for (let i = 0; i < REPEAT; i++) {
      const v = await vehicle(n.a);
      // each customer has booked once already, so both take the one-statement path
      const [c1, c2] = [(await n.a.userWithKey('customer')).key, (await n.b.userWithKey('customer')).key];
      year += 1;
      for (const [node, c, y] of [
        [n.a, c1, year + 500],
        [n.b, c2, year + 600],
      ] as const) {
        expect(
          (
            await node.inject({
              method: 'POST',
              url: `${V2}/booking/create`,
              headers: { 'x-rova-api-key': c },
              payload: body(v, y),
            })
          ).statusCode,
        ).toBe(201);
      }
      const rs = await Promise.all([
        n.a.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': c1 },
          payload: body(v, year),
        }),
        n.b.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': c2 },
          payload: body(v, year),
        }),
      ]);
      expect(rs.map((r) => r.statusCode).sort(), `round ${i}`).toEqual([201, 409]);
      expect(rs.find((r) => r.statusCode === 409)!.json()).toMatchObject({
        success: false,
        error_code: 'VEHICLE_NOT_AVAILABLE',
        details: { reason: 'booked' },
      });
      const won = Number(rs.find((r) => r.statusCode === 201)!.json().data.booking.id);
      const inSlot = await rows<{ id: number }>(
        n.a.platform.db,
        sql`SELECT id::int AS id FROM rental_bookings WHERE vehicle_id = ${v} AND holds_slot AND pickup_at < ${`${year}-05-05`}::timestamptz AND return_at > ${`${year}-05-01`}::timestamptz`,
      );
      expect(inSlot, `round ${i}`).toEqual([{ id: won }]);
    }
  }, 300_000);

  it(`${REPEAT} rounds: a new booking racing the cancel of the booking holding its slot → never two holders; once the cancel committed, the slot is free`, async () => {
    const outcomes = new Map<number, number>();
    for (let i = 0; i < REPEAT; i++) {
      const { id, customer } = await freshBooking('offline');
      const [b0] = await rows<{ vehicle_id: number }>(
        n.a.platform.db,
        sql`SELECT vehicle_id::int AS vehicle_id FROM rental_bookings WHERE id = ${id}`,
      );
      const other = (await n.b.userWithKey('customer')).key;
      expect(
        (
          await n.b.inject({
            method: 'POST',
            url: `${V2}/booking/create`,
            headers: { 'x-rova-api-key': other },
            payload: body(b0!.vehicle_id, year + 700),
          })
        ).statusCode,
      ).toBe(201);
      const [cancel, again] = await Promise.all([
        n.a.inject({ method: 'POST', url: `${V2}/my/bookings/${id}/cancel`, headers: { 'x-rova-api-key': customer } }),
        n.b.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': other },
          payload: { ...body(b0!.vehicle_id, year), pickup_date: `${year}-05-01`, return_date: `${year}-05-03` },
        }),
      ]);
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect([201, 409], again.body).toContain(again.statusCode);
      outcomes.set(again.statusCode, (outcomes.get(again.statusCode) ?? 0) + 1);
      const h = (await holders(b0!.vehicle_id)).map((x) => x.id);
      if (again.statusCode === 201) expect(h).toContain(Number(again.json().data.booking.id));
      expect(h).not.toContain(id);
      // after the cancel has committed, the slot is free: a third booking of it is decided by what is there now
      const third = await n.a.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': customer },
        payload: { ...body(b0!.vehicle_id, year), pickup_date: `${year}-05-01`, return_date: `${year}-05-03` },
      });
      expect(third.statusCode, `round ${i}`).toBe(again.statusCode === 201 ? 409 : 201);
    }
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(REPEAT);
    expect((await verifyIntegrity(n.a.platform.db)).findings).toEqual([]);
  }, 300_000);
});
