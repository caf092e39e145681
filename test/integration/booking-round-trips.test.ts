import { sql } from 'drizzle-orm';
import { rows } from '../../src/platform/db/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vehicle } from '../rental/helpers.js';
import { holdingIndexOf } from '../../src/modules/rental/availability/holding-index.js';
import { statementsByConnectionDuring, statementsDuring } from '../helpers/statements.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { outboxMails } from '../helpers/outbox.js';

// docs/contributors/performance.md promises at most this many statements for one POST /v2/booking/create by a
// customer's API key once its caches are warm: the booking with its order, lines, payment, event and stored mail in ONE
// statement, then the audit row (the pre-check is answered by the holding index). Each is in a transaction of its own,
// BEGIN and COMMIT besides: its answer comes before the COMMIT, which a lost connection cannot then leave unknown (the
// audit row's batch is group-committed: concurrent requests share it).
const PROMISED = 2;
// With an Idempotency-Key the key is kept in step with the booking in one transaction: claim, BEGIN, lock, booking,
// order CTE with the mail, key, the transaction's id, COMMIT, key finished, then the audit row in its own transaction
// (BEGIN, INSERT, COMMIT) (+ the expired-key drop).
const PROMISED_WITH_KEY = 13;
const V2 = '/wp-json/rova-rental/v2';
let n: TwoNodes;
beforeAll(async () => {
  n = await twoNodes({ RENTAL_WRITE_RATE_LIMIT: '1000000' });
}, 240_000);
afterAll(async () => {
  await n?.close();
});

describe('round trips of a booking', () => {
  it(`POST /v2/booking/create sends at most ${PROMISED} statements, the booking's writes in one, no lapsed-hold sweep and no re-read of what it wrote`, async () => {
    const v = await vehicle(n.a);
    const customer = (await n.a.userWithKey('customer')).key;
    const book = (y: number) =>
      n.a.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': customer },
        payload: {
          vehicle_id: v,
          pickup_date: `${y}-05-01`,
          return_date: `${y}-05-03`,
          payment_method: 'offline',
          payment_plan: 'deposit',
        },
      });
    expect((await book(2041)).statusCode).toBe(201); // warms the key cache and makes the customer record
    // that booking's reload of the vehicle in node a's holding index is off its request's path: let it land, as it
    // has between two customers' requests (while it runs the index sends the pre-check to the database)
    const idx = holdingIndexOf(n.a.platform);
    const until = Date.now() + 10_000;
    while (
      idx.overlaps(v, new Date('2042-05-01T00:00:00Z'), new Date('2042-05-02T00:00:00Z'), new Date()) === undefined &&
      Date.now() < until
    )
      await new Promise((r) => setTimeout(r, 5));
    let status = 0;
    const sent = await statementsByConnectionDuring(async () => {
      status = (await book(2042)).statusCode;
    });
    expect(status).toBe(201);
    // each node reloads the vehicle in its holding index once the commit is announced: off the request's path
    const reloads = sent.filter((s) => s.text.startsWith('/* holding index */'));
    expect(reloads.length).toBeLessThanOrEqual(2);
    const onPath = sent.filter((s) => !s.text.startsWith('/* holding index */'));
    // the booking statement and the audit row, each alone in a transaction of its own on its connection
    const alone = (pattern: RegExp) => {
      const own = onPath.find((s) => pattern.test(s.text));
      expect(own, String(pattern)).toBeDefined();
      return onPath
        .filter((s) => s.connection === own!.connection)
        .map((s) => (/^(BEGIN|COMMIT)/i.test(s.text) ? s.text.toUpperCase() : pattern.source));
    };
    expect(alone(/INSERT INTO rental_bookings/i), 'the booking statement in a transaction of its own').toEqual([
      'BEGIN',
      'INSERT INTO rental_bookings',
      'COMMIT',
    ]);
    expect(alone(/INSERT INTO rova_audit_log/i), "the audit row in its batch's transaction").toEqual([
      'BEGIN',
      'INSERT INTO rova_audit_log',
      'COMMIT',
    ]);
    let seen = onPath.map((s) => s.text);
    seen = seen.filter((s) => !/^(BEGIN|COMMIT)/i.test(s));
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(PROMISED);
    expect(
      seen.filter((s) => /pg_current_xact_id_if_assigned/.test(s)),
      "the statement reads its transaction's id itself",
    ).toEqual([]);
    expect(
      seen.filter((s) => /^UPDATE rental_bookings/i.test(s)),
      'no hold lapsed, so nothing is expired',
    ).toEqual([]);
    expect(
      seen.filter((s) => /FROM rova_api_keys|FROM rova_users/i.test(s)),
      'the key is answered from memory',
    ).toEqual([]);
    expect(
      seen.filter((s) => /^SELECT .* FROM rental_bookings WHERE id =/i.test(s)),
      'the booking is not read back',
    ).toEqual([]);
    const write = seen.filter((s) => /INSERT INTO rental_bookings/i.test(s));
    expect(write).toHaveLength(1);
    for (const part of [
      'FOR UPDATE OF v',
      'INSERT INTO rental_orders',
      'INSERT INTO rental_order_lines',
      'INSERT INTO rental_payments',
      'INSERT INTO rova_events',
      'INSERT INTO rova_mail_outbox',
    ]) {
      expect(write[0], part).toContain(part);
    }
  }, 60_000);

  it('the one-statement booking writes what the transactional path writes: event, order, payment and the stored mail (a name needing HTML escapes)', async () => {
    const [v1, v2] = [await vehicle(n.a), await vehicle(n.a)];
    const { key: customer, userId } = await n.a.userWithKey('customer');
    const book = (v: number, y: number, key?: string) =>
      n.a.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': customer, ...(key ? { 'idempotency-key': key } : {}) },
        payload: {
          vehicle_id: v,
          pickup_date: `${y}-06-01`,
          return_date: `${y}-06-04`,
          payment_method: 'offline',
          payment_plan: 'deposit',
        },
      });
    // the account's first booking makes its customer record; then the name is one a mail must escape
    expect((await book(v1, 2043)).statusCode).toBe(201);
    const name = `<b>"O'Brien" & Co</b>`;
    await n.a.platform.db.execute(sql`UPDATE rental_customers SET name = ${name} WHERE user_id = ${userId}`);
    // the same slot on two identical vehicles: with a key (the transaction), then without (the one statement)
    const viaTransaction = await book(v1, 2044, 'round-trips-key');
    const atOnce = await book(v2, 2044);
    expect([viaTransaction.statusCode, atOnce.statusCode]).toEqual([201, 201]);
    const shape = async (res: typeof atOnce) => {
      const d = res.json().data;
      const id = Number(d.booking.id);
      const [b] = await rows<Record<string, unknown>>(
        n.a.platform.db,
        sql`SELECT id::int AS id, reference, status, vehicle_id::int AS vehicle_id, customer_id::int AS customer_id,
          pickup_at, return_at, total::text AS total, currency, customer_name FROM rental_bookings WHERE id = ${id}`,
      );
      const [ev] = await rows<{ data: Record<string, unknown> }>(
        n.a.platform.db,
        sql`SELECT payload->'data' AS data FROM rova_events WHERE type = 'booking.created' AND (payload->'data'->>'id')::int = ${id}`,
      );
      const [pay] = await rows<{ n: number; amount: string }>(
        n.a.platform.db,
        sql`SELECT count(*)::int AS n, max(amount)::text AS amount FROM rental_payments WHERE booking_id = ${id}`,
      );
      const lines = await rows<{ kind: string; amount: string }>(
        n.a.platform.db,
        sql`SELECT l.kind, l.amount::text AS amount FROM rental_order_lines l JOIN rental_orders o ON o.id = l.order_id WHERE o.booking_id = ${id} ORDER BY l.id`,
      );
      const mails = (await outboxMails(n.a.platform, sql`m.subject LIKE ${'%' + String(b!.reference)}`)).map(
        ({ to_address, subject, text_body, html_body, template, status }) => ({
          to_address,
          subject,
          text_body,
          html_body,
          template,
          status,
        }),
      );
      const iso = (x: unknown) => new Date(String(x)).toISOString();
      expect(b!.customer_name).toBe(name);
      expect(ev!.data).toEqual({
        id,
        reference: b!.reference,
        status: 'pending_payment',
        vehicle_id: b!.vehicle_id,
        customer_id: b!.customer_id,
        pickup_at: iso(b!.pickup_at),
        return_at: iso(b!.return_at),
        total: b!.total,
        currency: b!.currency,
      });
      expect(pay).toEqual({ n: 1, amount: Number(d.amount_due).toFixed(2) });
      expect(d.booking.total).toBe(Number(b!.total));
      expect(mails).toHaveLength(1);
      const ref = String(b!.reference);
      // the two paths book two identical vehicles: the mail names each one (and its reference, and its signed manage
      // link), nothing else differs
      const [car] = await rows<{ name: string }>(
        n.a.platform.db,
        sql`SELECT name FROM rental_vehicles WHERE id = ${Number(b!.vehicle_id)}`,
      );
      const mail = Object.fromEntries(
        Object.entries(mails[0]!).map(([k, x]) => [
          k,
          x
            .split(ref)
            .join('RB-X')
            .split(car!.name)
            .join('CAR-X')
            .replace(/rova_manage=[A-Za-z0-9._-]+/g, 'rova_manage=LINK-X'),
        ]),
      );
      return {
        customer: b!.customer_id,
        lines,
        mail,
        answer: {
          ...d,
          booking: {
            ...d.booking,
            id: 0,
            reference: 'RB-X',
            vehicle_id: 0,
            created_at: 'T',
            updated_at: 'T',
            payment_deadline: 'T',
          },
          payment: { ...d.payment, instructions: String(d.payment.instructions).split(ref).join('RB-X') },
        },
      };
    };
    const t = await shape(viaTransaction);
    const o = await shape(atOnce);
    expect(o).toEqual(t);
    expect(o.lines.map((l) => l.kind)).toEqual(['rental', 'tax', 'deposit']);
    expect(o.mail.text_body).toContain(`Hello ${name},`);
    expect(o.mail.html_body).toContain('<p>Hello &lt;b&gt;&quot;O&#39;Brien&quot; &amp; Co&lt;/b&gt;,</p>');
  }, 60_000);

  it('customers booking at once on two nodes share statements: 60 creates over 20 vehicles, one of each two overlapping slots booked, every booking with its own order, payment, event and mail', async () => {
    const vs = await Promise.all(Array.from({ length: 20 }, () => vehicle(n.a)));
    const keys = await Promise.all(Array.from({ length: 6 }, () => n.a.userWithKey('customer')));
    const book = (node: typeof n.a, key: string, v: number, from: string, to: string) =>
      node.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': key },
        payload: {
          vehicle_id: v,
          pickup_date: from,
          return_date: to,
          payment_method: 'offline',
          payment_plan: 'deposit',
        },
      });
    // each account's first booking makes its customer record
    for (const [i, k] of keys.entries())
      expect((await book(n.a, k.key, vs[i]!, '2049-01-01', '2049-01-02')).statusCode).toBe(201);
    const slots = [
      ['2049-03-01', '2049-03-04'],
      ['2049-03-03', '2049-03-06'],
      ['2049-03-10', '2049-03-12'],
    ] as const;
    const asks = vs.flatMap((v, i) =>
      slots.map(([from, to], j) => ({
        v,
        from,
        to,
        node: (i + j) % 2 ? n.b : n.a,
        key: keys[(i + j) % keys.length]!.key,
      })),
    );
    let answers: {
      status: number;
      body: {
        data?: { booking: { id: number; vehicle_id: number; pickup_at: string } };
        details?: { reason?: string };
      };
    }[] = [];
    const seen = await statementsDuring(async () => {
      answers = (await Promise.all(asks.map((a) => book(a.node, a.key, a.v, a.from, a.to)))).map((r) => ({
        status: r.statusCode,
        body: r.json(),
      }));
    });
    expect(
      answers.filter((a) => a.status === 201),
      'the third slot always, one of the two overlapping ones',
    ).toHaveLength(40);
    for (const a of answers.filter((x) => x.status !== 201))
      expect([a.status, a.body.details?.reason]).toEqual([409, 'booked']);
    const statements = seen.filter((x) => x.startsWith('WITH i AS (SELECT * FROM jsonb_to_recordset'));
    expect(statements.length, 'bookings shared statements').toBeLessThan(40);
    const ids = answers.flatMap((a) => (a.status === 201 ? [Number(a.body.data!.booking.id)] : []));
    const [check] = await rows<{
      overlapping: number;
      orders: number;
      lines: number;
      payments: number;
      events: number;
      mails: number;
    }>(
      n.a.platform.db,
      sql`SELECT
        (SELECT count(*)::int FROM rental_bookings x JOIN rental_bookings y ON x.vehicle_id = y.vehicle_id AND x.id < y.id AND x.holds_slot AND y.holds_slot AND x.slot && y.slot
          WHERE x.vehicle_id = ANY(${`{${vs.join(',')}}`}::bigint[])) AS overlapping,
        (SELECT count(*)::int FROM rental_orders WHERE booking_id = ANY(${`{${ids.join(',')}}`}::bigint[])) AS orders,
        (SELECT count(*)::int FROM rental_order_lines l JOIN rental_orders o ON o.id = l.order_id WHERE o.booking_id = ANY(${`{${ids.join(',')}}`}::bigint[])) AS lines,
        (SELECT count(*)::int FROM rental_payments WHERE booking_id = ANY(${`{${ids.join(',')}}`}::bigint[])) AS payments,
        (SELECT count(*)::int FROM rova_events WHERE type = 'booking.created' AND (payload->'data'->>'id')::bigint = ANY(${`{${ids.join(',')}}`}::bigint[])) AS events,
        (SELECT count(*)::int FROM rova_mail_outbox m JOIN rental_bookings b ON m.subject LIKE '%' || b.reference WHERE b.id = ANY(${`{${ids.join(',')}}`}::bigint[])) AS mails`,
    );
    expect(check).toEqual({ overlapping: 0, orders: 40, lines: 120, payments: 40, events: 40, mails: 40 });
  }, 120_000);

  it("transactions holding vehicles' locks hold up those vehicles' bookings only: the others booked meanwhile, on the same node, answer at once", async () => {
    const vs = await Promise.all(Array.from({ length: 8 }, () => vehicle(n.a)));
    const { key } = await n.a.userWithKey('customer');
    const book = (v: number, y: number) =>
      n.a.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': key },
        payload: {
          vehicle_id: v,
          pickup_date: `${y}-08-01`,
          return_date: `${y}-08-03`,
          payment_method: 'offline',
          payment_plan: 'deposit',
        },
      });
    expect((await book(vs[0]!, 2050)).statusCode).toBe(201);
    // node b's transaction holds the locks of two vehicles (as many as a node has booking statements in flight) until released
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const holder = n.b.platform.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM rental_vehicles WHERE id IN (${vs[1]!}, ${vs[2]!}) FOR UPDATE`);
      locked();
      await gate;
    });
    await isLocked;
    let held = 0;
    const waiting = [vs[1]!, vs[2]!].map((v) =>
      book(v, 2051).then((r) => {
        held += 1;
        return r.statusCode;
      }),
    );
    try {
      // many bookings of the other vehicles, several statements' worth, while the lock is held
      const others = await Promise.all(vs.slice(3).flatMap((v) => [book(v, 2052), book(v, 2053), book(v, 2054)]));
      expect(others.map((r) => r.statusCode)).toEqual(others.map(() => 201));
      expect(held, 'the locked vehicles still wait').toBe(0);
    } finally {
      release();
      await holder;
    }
    expect(await Promise.all(waiting)).toEqual([201, 201]);
  }, 60_000);

  it(`with an Idempotency-Key the booking and its key commit in one transaction: at most ${PROMISED_WITH_KEY} statements`, async () => {
    const v = await vehicle(n.a);
    const customer = (await n.a.userWithKey('customer')).key;
    const book = (y: number, key: string) =>
      n.a.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': customer, 'idempotency-key': key },
        payload: {
          vehicle_id: v,
          pickup_date: `${y}-05-01`,
          return_date: `${y}-05-03`,
          payment_method: 'offline',
          payment_plan: 'deposit',
        },
      });
    expect((await book(2046, 'warm-1')).statusCode).toBe(201);
    const idx = holdingIndexOf(n.a.platform);
    const until = Date.now() + 10_000;
    while (
      idx.overlaps(v, new Date('2046-05-01T00:00:00Z'), new Date('2046-05-02T00:00:00Z'), new Date()) === undefined &&
      Date.now() < until
    )
      await new Promise((r) => setTimeout(r, 5));
    let status = 0;
    const seen = (
      await statementsDuring(async () => {
        status = (await book(2047, 'warm-2')).statusCode;
      })
    ).filter((s) => !s.startsWith('/* holding index */'));
    expect(status).toBe(201);
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(PROMISED_WITH_KEY);
    // the booking's transaction (with its key) and the audit batch's
    expect(seen.filter((s) => /^BEGIN/i.test(s))).toHaveLength(2);
    expect(seen.filter((s) => /^COMMIT/i.test(s))).toHaveLength(2);
  }, 60_000);

  it('a booking of the slot of a lapsed unpaid hold cancels the hold in its own transaction and takes the slot', async () => {
    const v = await vehicle(n.a);
    const customer = (await n.a.userWithKey('customer')).key;
    const book = (y: number) =>
      n.a.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': customer },
        payload: {
          vehicle_id: v,
          pickup_date: `${y}-05-01`,
          return_date: `${y}-05-03`,
          payment_method: 'offline',
          payment_plan: 'deposit',
        },
      });
    const first = await book(2043);
    expect(first.statusCode).toBe(201);
    const id = Number(first.json().data.booking.id);
    await n.a.platform.db.execute(
      sql`UPDATE rental_bookings SET status = 'pending_payment', payment_deadline = now() - interval '1 minute' WHERE id = ${id}`,
    );
    const seen = await statementsDuring(async () => {
      expect((await book(2043)).statusCode).toBe(201);
    });
    expect(seen.filter((s) => /^UPDATE rental_bookings/i.test(s)).length).toBeGreaterThanOrEqual(1);
    expect(await rows(n.a.platform.db, sql`SELECT status FROM rental_bookings WHERE id = ${id}`)).toEqual([
      { status: 'cancelled' },
    ]);
  }, 60_000);
});
