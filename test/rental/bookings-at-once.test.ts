import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_BATCH, BOOKING_FLIGHTS, bookingsAtOnceOf } from '../../src/modules/rental/bookings/at-once.js';
import {
  bookVehiclesAtOnce,
  type BookedAtOnce,
  type KnownCustomer,
  type RentalAtOnce,
} from '../../src/modules/rental/bookings/create/statement.js';
import { bookingMailToStore } from '../../src/modules/rental/bookings/mails.js';
import { outboxEvent } from '../../src/platform/events/emit.js';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { rawBooking, vehicle } from './helpers.js';
import { outboxMails } from '../helpers/outbox.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
}, 240_000);
afterAll(async () => t?.close());

let n = 0;
/** The customer record of each account made by `account`, as the writer of a booking knows it. */
const customers = new Map<number, KnownCustomer>();
/** An account with a customer record (as its first booking leaves it). */
async function account(name: string): Promise<number> {
  const { userId } = await t.userWithKey('customer');
  const [c] = await rows<{ id: number }>(
    t.platform.db,
    sql`INSERT INTO rental_customers (user_id, name, email) VALUES (${userId}, ${name}, ${`c${userId}@example.test`}) RETURNING id::int AS id`,
  );
  customers.set(userId, { id: c!.id, name, email: `c${userId}@example.test`, phone: '' });
  return userId;
}

/** A booking as the storefront's create makes it: the order with three lines, the payment, the drafted event, the mail. */
function item(vehicleId: number, accountId: number, day: string, answers: Record<string, number>): RentalAtOnce {
  n += 1;
  const reference = `AT-${n}-${Date.now()}`;
  const columns = {
    reference,
    vehicle_id: vehicleId,
    kind: 'rental' as const,
    pickup_location_id: null,
    return_location_id: null,
    pickup_at: `${day}T10:00:00.000Z`,
    return_at: `${day.slice(0, 8)}${String(Number(day.slice(8)) + 2).padStart(2, '0')}T10:00:00.000Z`,
    days: 2,
    price_per_day: 100,
    net_price: 200,
    addons_total: 0,
    tax: 20,
    total: 220,
    deposit: 44,
    remaining: 176,
    addons: [],
    breakdown: { note: `n${n}` },
    currency: 'USD',
    payment_method: 'offline',
    payment_deadline: new Date(Date.now() + 900_000).toISOString(),
    status: 'pending_payment' as const,
    notes: '',
    source: 'storefront',
    buffer_minutes: 0,
  };
  // an account without a record (`nobody`): what its writer would have guessed
  const customer = customers.get(accountId) ?? { id: 0, name: 'Nobody', email: 'nobody@example.test', phone: '' };
  const draft = {
    ...columns,
    id: 0,
    customer_id: 0,
    customer_name: customer.name,
    customer_email: customer.email,
    customer_phone: customer.phone,
    created_at: '',
    updated_at: '',
  } as never;
  answering.set(reference, answers);
  return {
    accountId,
    customer,
    columns,
    writes: {
      order: { user_id: accountId, payment_plan: 'deposit', currency: 'USD', total: 220, amount_due: 44 },
      lines: [
        { kind: 'rental', code: null, description: 'Rental', amount: 200 },
        { kind: 'tax', code: 'vat', description: 'VAT', amount: 20 },
        { kind: 'deposit', code: null, description: 'Deposit', amount: 44 },
      ],
      payment: { provider: 'offline', amount: 44 },
      events: [outboxEvent('booking.created', { id: 0, customer_id: 0, total: '0', reference })],
      mail: bookingMailToStore(t.platform, NO_CATALOGUE, 'booking_created', draft),
    },
  };
}

/** The mail names no vehicle or location (the rows it renders without them are the ones this test reads). */
const NO_CATALOGUE = { vehicles: new Map(), locations: new Map(), rules: [], photos: new Map() };

/** Where each booking's payment id is recorded once it is written (what the create answers with). */
const answering = new Map<string, Record<string, number>>();
function answered(items: readonly RentalAtOnce[], made: readonly BookedAtOnce[]): void {
  made.forEach((m, i) => {
    const ref = items[i]!.columns.reference;
    if ('booking' in m) answering.get(ref)![ref] = m.written.payment_id;
  });
}

describe('bookings at once', () => {
  it('one statement for a batch: each booking is written with its own order, lines in order, payment, event and mail; one that cannot be written leaves no trace and says why', async () => {
    const [v1, v2, vTaken, vLapsed] = [await vehicle(t), await vehicle(t), await vehicle(t), await vehicle(t)];
    const alice = await account('Alice <&>');
    const bob = await account('Bob');
    const { userId: nobody } = await t.userWithKey('customer');
    await rawBooking(t, vTaken, '2036-03-10T00:00:00Z', '2036-03-20T00:00:00Z', 'confirmed');
    const lapsed = await rawBooking(t, vLapsed, '2036-05-10T00:00:00Z', '2036-05-12T00:00:00Z', 'pending_payment', {
      payment_deadline: new Date(Date.now() + 60_000).toISOString(),
    });
    await t.platform.db.execute(
      sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 minute', holds_slot = true WHERE id = ${lapsed}`,
    );
    const answers: Record<string, number> = {};
    const items = [
      item(v1, alice, '2036-03-11', answers),
      item(vTaken, bob, '2036-03-11', answers),
      item(vLapsed, bob, '2036-07-11', answers),
      item(v2, nobody, '2036-03-11', answers),
      item(9_999_999, alice, '2036-03-11', answers),
      item(v2, bob, '2036-03-14', answers),
    ];
    const made = await bookVehiclesAtOnce(t.platform.db, items);
    answered(items, made);
    expect(made.map((m) => ('booking' in m ? 'booked' : m.fallback))).toEqual([
      'booked',
      'conflict',
      'lapsed_holds',
      'no_customer',
      'no_vehicle',
      'booked',
    ]);
    const [a, b] = [made[0], made[5]].map((m) => (m as Extract<BookedAtOnce, { booking: unknown }>).booking);
    expect(Number(a!.vehicle_id)).toBe(v1);
    expect(a).toMatchObject({
      customer_name: 'Alice <&>',
      status: 'pending_payment',
      total: '220.00',
      reference: items[0]!.columns.reference,
      breakdown: { note: expect.any(String) },
    });
    expect(Number(b!.vehicle_id)).toBe(v2);
    expect(b).toMatchObject({ customer_name: 'Bob', reference: items[5]!.columns.reference });
    expect(Object.keys(answers).sort()).toEqual([items[0]!.columns.reference, items[5]!.columns.reference].sort());

    const refs = items.map((i) => String(i.columns.reference));
    const written = await rows<{
      reference: string;
      lines: string;
      pay: string;
      payment_id: string;
      event: { data: { id: number; customer_id: number; total: string; reference: string } };
      booking_id: number;
    }>(
      t.platform.db,
      sql`
      SELECT bk.reference,
        (SELECT string_agg(l.kind || ':' || l.amount, ',' ORDER BY l.id) FROM rental_orders o JOIN rental_order_lines l ON l.order_id = o.id WHERE o.booking_id = bk.id) AS lines,
        (SELECT p.provider || ':' || p.amount || ':' || p.currency FROM rental_payments p WHERE p.booking_id = bk.id) AS pay,
        (SELECT p.id FROM rental_payments p WHERE p.booking_id = bk.id) AS payment_id,
        (SELECT e.payload FROM rova_events e WHERE e.type = 'booking.created' AND e.payload->'data'->>'reference' = bk.reference) AS event,
        bk.id::int AS booking_id
      FROM rental_bookings bk WHERE bk.reference = ANY(${`{${refs.join(',')}}`}::text[]) ORDER BY bk.id`,
    );
    expect(
      written.map((w) => w.reference),
      'nothing of the four that were not booked',
    ).toEqual([refs[0], refs[5]]);
    for (const [w, booking] of [
      [written[0]!, a!],
      [written[1]!, b!],
    ] as const) {
      expect(w.lines).toBe('rental:200.00,tax:20.00,deposit:44.00');
      expect(w.pay).toBe('offline:44.00:USD');
      expect(answers[w.reference]).toBe(Number(w.payment_id));
      expect(w.event.data).toEqual({
        id: Number(booking.id),
        customer_id: Number(booking.customer_id),
        total: '220.00',
        reference: w.reference,
      });
      const mails = await outboxMails(t.platform, sql`m.about = ${`booking:${w.booking_id}`}`);
      expect(mails.map((m) => [m.template, m.to_address])).toEqual([['booking_created', booking.customer_email]]);
      expect(mails[0]!.html_body).toContain(w.reference);
    }
    const [alices] = await outboxMails(t.platform, sql`m.about = ${`booking:${written[0]!.booking_id}`}`);
    expect(alices!.html_body, 'the name HTML-escaped, as the templates escape').toContain('Alice &lt;&amp;&gt;');
    const orphans = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_events WHERE payload->'data'->>'reference' = ANY(${`{${[refs[1], refs[2], refs[3], refs[4]].join(',')}}`}::text[])`,
    );
    expect(orphans[0]!.n).toBe(0);
  });

  it(`bookings that arrive together share statements (at most ${BOOKING_FLIGHTS} in flight), one per vehicle in each, in arrival order`, async () => {
    const vs = await Promise.all(Array.from({ length: 6 }, () => vehicle(t)));
    const who = await account('Carol');
    const seen: number[][] = [];
    const db = t.platform.db;
    const at = bookingsAtOnceOf(t.platform);
    // every statement's bookings, by vehicle, as the batcher hands them over
    const orig = (at as unknown as { write(b: { item: RentalAtOnce }[]): Promise<void> }).write.bind(at);
    (at as unknown as { write(b: { item: RentalAtOnce }[]): Promise<void> }).write = (b) => {
      seen.push(b.map((w) => w.item.columns.vehicle_id));
      return orig(b);
    };
    try {
      const answers: Record<string, number> = {};
      // 2 per vehicle, on different days: the second of a vehicle never rides with its first
      const items = vs.flatMap((v, i) => [
        item(v, who, `2037-0${(i % 6) + 1}-01`, answers),
        item(v, who, `2037-0${(i % 6) + 1}-10`, answers),
      ]);
      const made = await Promise.all(items.map((x) => at.book(x)));
      answered(items, made);
      expect(made.every((m) => 'booking' in m)).toBe(true);
      expect(seen.length, 'fewer statements than bookings').toBeLessThan(items.length);
      expect(seen[0], 'a quiet node sends the first booking alone, at once').toHaveLength(1);
      for (const s of seen) {
        expect(new Set(s).size, 'one booking per vehicle in a statement').toBe(s.length);
        expect(s.length).toBeLessThanOrEqual(BOOKING_BATCH);
      }
      expect(seen.flat().sort(), 'every booking went exactly once').toEqual(
        items.map((x) => x.columns.vehicle_id).sort(),
      );
    } finally {
      delete (at as unknown as { write?: unknown }).write;
    }
    void db;
  });

  it('PostgreSQL refusing the statement (one bad value) writes nothing of it and sends each of its bookings the transactional way', async () => {
    const [v0, v1, v2, v3] = [await vehicle(t), await vehicle(t), await vehicle(t), await vehicle(t)];
    const who = await account('Dan');
    const answers: Record<string, number> = {};
    const good = item(v2, who, '2038-01-10', answers);
    const bad = item(v3, who, '2038-01-10', answers);
    bad.columns.days = 10_000_000_000; // out of the column's range: PostgreSQL refuses the whole statement (22003)
    await expect(bookVehiclesAtOnce(t.platform.db, [bad])).rejects.toMatchObject({ cause: { code: '22003' } });
    const at = bookingsAtOnceOf(t.platform);
    // both flights busy, so the good and the bad booking wait and share the next statement
    const flyingItems = [item(v0, who, '2038-01-10', answers), item(v1, who, '2038-01-10', answers)];
    const flying = flyingItems.map((x) => at.book(x));
    const together = [at.book(good), at.book(bad)];
    const flown = await Promise.all(flying);
    answered(flyingItems, flown);
    expect(flown.every((m) => 'booking' in m)).toBe(true);
    const refused = await Promise.all(together);
    answered([good, bad], refused);
    expect(refused).toEqual([{ fallback: 'refused' }, { fallback: 'refused' }]);
    const left = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rental_bookings WHERE reference IN (${good.columns.reference}, ${bad.columns.reference})`,
    );
    expect(left[0]!.n).toBe(0);
    expect(answers[good.columns.reference]).toBeUndefined();
  });
});
