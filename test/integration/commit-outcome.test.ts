import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { cuttableProxy, type ClientMessage, type CuttableProxy } from '../helpers/tcp-cut.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { rawBooking, vehicle } from '../rental/helpers.js';

// Issue 37 items 5 and 8 on PostgreSQL (and through PgBouncer with --pgbouncer): node a reaches the database through a
// proxy that cuts a connection at a chosen message. A write whose COMMIT committed is answered 201 with the body a
// normal 201 has, whatever happened to the COMMIT's answer; a 503 leaves no booking; every booking has its mail.
const V2 = '/wp-json/rova-rental/v2';
/** Node a's DATABASE_COMMIT_OUTCOME_WAIT_MS: a partition longer than this leaves the outcome unknown (503). */
const OUTCOME_WAIT_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n: TwoNodes;
let proxy: CuttableProxy;

beforeAll(async () => {
  proxy = await cuttableProxy();
  n = await twoNodes(
    {
      RENTAL_WRITE_RATE_LIMIT: '1000000',
      RENTAL_PUBLIC_RATE_LIMIT: '1000000',
      DATABASE_COMMIT_OUTCOME_WAIT_MS: String(OUTCOME_WAIT_MS),
    },
    { routeA: (url) => proxy.route(url) },
  );
}, 240_000);
afterAll(async () => {
  await n?.close();
  await proxy?.close();
});

/** A cut armed for at most `ms`: the number of connections it cut, 0 when nothing matched meanwhile (then disarmed). */
async function cutWithin(armed: Promise<number>, ms: number): Promise<number> {
  const cut = await Promise.race([armed, sleep(ms).then(() => 0)]);
  if (cut === 0) proxy.disarm();
  return cut;
}

/** After a cut: the proxy open again and node a's pool past its dead connections (3 answers in a row). */
async function settle(): Promise<void> {
  proxy.disarm();
  proxy.restore();
  const until = Date.now() + 30_000;
  for (let ok = 0; ok < 3 && Date.now() < until;) {
    ok = await n.a.platform.db.execute(sql`SELECT 1`).then(
      () => ok + 1,
      () => 0,
    );
    if (ok === 0) await sleep(50);
  }
}

const text = (m: ClientMessage) => m.body.toString('latin1');
/** A transaction's COMMIT (Drizzle sends it as a simple query). */
const isCommit = (m: ClientMessage) => m.type === 'Q' && /^commit\b/i.test(text(m));
/** The parameters of the customers' booking statement (`bookVehiclesAtOnce`: every booking carries its account). */
const isBatch = (m: ClientMessage) => m.type === 'B' && text(m).includes('"account_id":');
/** A statement sending the booking_created mail: the order statement carrying it, or a mail of its own after the commit. */
const sendsMail = (m: ClientMessage) => m.type === 'B' && text(m).includes('booking_created') && !isBatch(m);

interface Sent {
  vehicle: number;
  pickup: string;
  status: number;
  retryAfter: string | undefined;
  body: {
    data?: {
      booking: { id: number; reference: string } & Record<string, unknown>;
      payment: Record<string, unknown>;
    } & Record<string, unknown>;
  };
}

async function send(key: string, vehicleId: number, pickup: string, returnDate: string, ikey?: string): Promise<Sent> {
  const res = await n.a.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: { 'x-rova-api-key': key, ...(ikey ? { 'idempotency-key': ikey } : {}) },
    payload: {
      vehicle_id: vehicleId,
      pickup_date: pickup,
      return_date: returnDate,
      payment_method: 'offline',
      payment_plan: 'deposit',
    },
  });
  return {
    vehicle: vehicleId,
    pickup,
    status: res.statusCode,
    retryAfter: res.headers['retry-after'] as string | undefined,
    body: res.json(),
  };
}

interface Stored {
  id: number;
  reference: string;
  mails: number;
}

/** The bookings of a vehicle picked up on `pickup` (UTC date), with the number of booking_created mails of each. */
async function stored(vehicleId: number, pickup: string): Promise<Stored[]> {
  return rows<Stored>(
    n.b.platform.db,
    sql`SELECT b.id::int AS id, b.reference,
      (SELECT count(*)::int FROM rova_mail_outbox m WHERE m.template = 'booking_created' AND m.subject LIKE '%' || b.reference) AS mails
    FROM rental_bookings b WHERE b.vehicle_id = ${vehicleId} AND (b.pickup_at AT TIME ZONE 'UTC')::date = ${pickup}::date ORDER BY b.id`,
  );
}

/**
 * What every answer must be: 201 for a booking that is in the database, with the body a normal 201 has (`like`: the
 * keys of one, the payment's instructions naming the booking); 503 with Retry-After for a booking that is not.
 * Every booking has exactly one booking_created mail.
 */
async function expectTruthful(sent: readonly Sent[], like: Sent): Promise<{ created: number; unavailable: number }> {
  const shape = (s: Sent) => ({
    data: Object.keys(s.body.data ?? {}).sort(),
    booking: Object.keys(s.body.data?.booking ?? {}).sort(),
    payment: Object.keys(s.body.data?.payment ?? {}).sort(),
  });
  let created = 0;
  let unavailable = 0;
  for (const s of sent) {
    const found = await stored(s.vehicle, s.pickup);
    const what = `vehicle ${s.vehicle} from ${s.pickup}: ${s.status} ${JSON.stringify(s.body)}; stored ${JSON.stringify(found)}`;
    expect([201, 503], what).toContain(s.status);
    if (s.status === 201) {
      created += 1;
      expect(
        found.map((b) => [b.id, b.reference]),
        what,
      ).toEqual([[s.body.data!.booking.id, s.body.data!.booking.reference]]);
      expect(shape(s), what).toEqual(shape(like));
      expect(s.body.data!.payment, what).toEqual({
        provider: 'offline',
        instructions: expect.stringContaining(s.body.data!.booking.reference),
      });
    } else {
      unavailable += 1;
      expect(s.retryAfter, what).toBeDefined();
      expect(found, `a 503 left a booking: ${what}`).toEqual([]);
    }
    for (const b of found) expect(b.mails, `the booking's mail: ${what}`).toBe(1);
  }
  return { created, unavailable };
}

/** A customer whose customer record exists (its first booking is made), so its next bookings go in one statement. */
async function knownCustomer(v: number): Promise<{ key: string; control: Sent }> {
  const { key } = await n.a.userWithKey('customer');
  const control = await send(key, v, '2040-01-01', '2040-01-03');
  expect(control.status, JSON.stringify(control.body)).toBe(201);
  return { key, control };
}

describe('a lost connection after the COMMIT (issue 37 item 5)', () => {
  it("batched creates while connections are cut after the statement or at the COMMIT's answer: every committed booking answered 201, every 503 has no booking, every booking its mail", async () => {
    const CUSTOMERS = 12;
    const CUTS = 12;
    const vs = await Promise.all(Array.from({ length: CUSTOMERS }, () => vehicle(n.a)));
    const customers: { key: string; control: Sent }[] = [];
    for (const v of vs) customers.push(await knownCustomer(v));
    const sent: Sent[] = [];
    let cutting = true;
    const loop = async (w: number) => {
      for (let i = 0; cutting && i < 60; i++) {
        const month = String((i % 12) + 1).padStart(2, '0');
        sent.push(
          await send(
            customers[w]!.key,
            vs[w]!,
            `${2041 + Math.floor(i / 12)}-${month}-01`,
            `${2041 + Math.floor(i / 12)}-${month}-03`,
          ),
        );
      }
    };
    const cuts = { batch: 0, commit: 0 };
    const cutter = async () => {
      try {
        for (let i = 0; i < CUTS; i++) {
          // the statement's answer (before its COMMIT), then a COMMIT's answer (after it), in turn
          const which = i % 2 === 0 ? 'batch' : 'commit';
          const cut = await cutWithin(proxy.cutAt(which === 'batch' ? isBatch : isCommit, { when: 'answer' }), 10_000);
          if (cut > 0) cuts[which] += 1;
          await sleep(100);
        }
      } finally {
        cutting = false;
      }
    };
    await Promise.all([cutter(), ...customers.map((_, w) => loop(w))]);
    await settle();
    const { created, unavailable } = await expectTruthful(sent, customers[0]!.control);
    console.log(
      `batched: ${sent.length} creates, ${cuts.batch} cuts after a statement, ${cuts.commit} at a COMMIT's answer: ${created} × 201, ${unavailable} × 503`,
    );
    expect(cuts.batch, 'cuts after a booking statement').toBeGreaterThan(0);
    expect(cuts.commit, "cuts at a COMMIT's answer").toBeGreaterThan(0);
    expect(created).toBeGreaterThan(0);
    expect(unavailable, 'the statements cut before their COMMIT').toBeGreaterThan(0);
  }, 600_000);

  it('keyed creates (the transactional path) while COMMITs lose their answers: every committed booking answered 201, every 503 has no booking', async () => {
    const CUSTOMERS = 6;
    const CUTS = 8;
    const vs = await Promise.all(Array.from({ length: CUSTOMERS }, () => vehicle(n.a)));
    const customers: { key: string; control: Sent }[] = [];
    for (const v of vs) customers.push(await knownCustomer(v));
    const like = await send(customers[0]!.key, vs[0]!, '2040-02-01', '2040-02-03', 'keyed-like');
    expect(like.status).toBe(201);
    const sent: Sent[] = [];
    let cutting = true;
    const loop = async (w: number) => {
      for (let i = 0; cutting && i < 60; i++) {
        const month = String((i % 12) + 1).padStart(2, '0');
        const pickup = `${2051 + Math.floor(i / 12)}-${month}-01`;
        sent.push(
          await send(customers[w]!.key, vs[w]!, pickup, `${2051 + Math.floor(i / 12)}-${month}-03`, `keyed-${w}-${i}`),
        );
      }
    };
    let cuts = 0;
    const cutter = async () => {
      try {
        for (let i = 0; i < CUTS; i++) {
          cuts += (await cutWithin(proxy.cutAt(isCommit, { when: 'answer' }), 10_000)) > 0 ? 1 : 0;
          await sleep(100);
        }
      } finally {
        cutting = false;
      }
    };
    await Promise.all([cutter(), ...customers.map((_, w) => loop(w))]);
    await settle();
    const { created, unavailable } = await expectTruthful(sent, like);
    console.log(
      `keyed: ${sent.length} creates, ${cuts} cuts at a COMMIT's answer: ${created} × 201, ${unavailable} × 503`,
    );
    expect(cuts).toBeGreaterThan(0);
    expect(created).toBeGreaterThan(0);
  }, 600_000);

  it('the database unreachable past DATABASE_COMMIT_OUTCOME_WAIT_MS after the COMMIT: 503 (SERVICE_UNAVAILABLE), the outcome unknown to the request', async () => {
    const v = await vehicle(n.a);
    const { key } = await knownCustomer(v);
    const armed = proxy.cutAt(isCommit, { when: 'answer', partition: true });
    const started = Date.now();
    const sent = await send(key, v, '2060-01-01', '2060-01-03', 'unknown-outcome');
    const took = Date.now() - started;
    const cut = await cutWithin(armed, 200);
    await settle();
    expect(cut).toBeGreaterThan(0);
    expect(sent.status, JSON.stringify(sent.body)).toBe(503);
    expect(sent.body).toMatchObject({ success: false, error_code: 'SERVICE_UNAVAILABLE' });
    expect(took).toBeGreaterThanOrEqual(OUTCOME_WAIT_MS - 100);
    // it did commit, mail and all (idempotency-lease.test.ts: its key then answers it after the lease)
    const found = await stored(v, '2060-01-01');
    expect(found.map((b) => b.mails)).toEqual([1]);
  }, 120_000);
});

type Path = 'batched' | 'first booking' | 'keyed' | 'fallback (lapsed hold)';

/** A create on `path`, with what it needs set up first; the cut is armed just before it is sent. */
async function createOn(path: Path, arm: () => Promise<number>): Promise<{ sent: Sent; cut: number; like: Sent }> {
  const v = await vehicle(n.a);
  const fresh = await n.a.userWithKey('customer');
  const known = path === 'first booking' ? null : await knownCustomer(v);
  if (path === 'fallback (lapsed hold)') {
    const lapsed = await rawBooking(n.a, v, '2039-06-01T10:00:00Z', '2039-06-03T10:00:00Z', 'pending_payment', {
      payment_deadline: new Date(Date.now() + 60_000).toISOString(),
    });
    await n.a.platform.db.execute(
      sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 minute', holds_slot = true WHERE id = ${lapsed}`,
    );
  }
  const like =
    known?.control ??
    (await send((await n.a.userWithKey('customer')).key, await vehicle(n.a), '2040-01-01', '2040-01-03'));
  const armed = arm();
  const sent = await send(
    known?.key ?? fresh.key,
    v,
    '2061-01-01',
    '2061-01-03',
    path === 'keyed' ? `mail-${v}` : undefined,
  );
  // a cut that never came (nothing matched) is 0
  const cut = await cutWithin(armed, 200);
  await settle();
  return { sent, cut, like };
}

describe('the booking mail on every path (issue 37 item 8)', () => {
  for (const path of ['batched', 'first booking', 'keyed', 'fallback (lapsed hold)'] as const) {
    it(`${path}: the connection dies as the mail is sent (every connection, until the answer) → no booking without its mail`, async () => {
      const { sent, cut, like } = await createOn(path, () =>
        proxy.cutAt(path === 'batched' ? isBatch : sendsMail, { when: 'message', partition: true }),
      );
      await expectTruthful([sent], like);
      expect(cut, 'the cut happened').toBeGreaterThan(0);
    }, 120_000);

    it(`${path}: the connection dies right after the COMMIT (the database back within the wait) → 201 with the booking, which has its mail`, async () => {
      // the COMMIT of the booking's own transaction: for the paths that try the statement first, not the batch's
      let order = path === 'batched';
      const { sent, cut, like } = await createOn(path, () => {
        const armed = proxy.cutAt(
          (m) => {
            if (m.type === 'B' && text(m).includes('"pay":') && !isBatch(m)) order = true;
            return order && isCommit(m);
          },
          { when: 'answer', partition: true },
        );
        // the database comes back while the request waits to learn what its COMMIT did
        void armed.then(() => sleep(500)).then(() => proxy.restore());
        return armed;
      });
      await expectTruthful([sent], like);
      expect(cut, 'the cut happened').toBeGreaterThan(0);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }, 120_000);
  }
});
