import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailDeliveryOf, MAIL_ATTEMPTS } from '../../src/platform/mail/delivery.js';
import { rows } from '../../src/platform/db/types.js';
import { cuttableProxy, type ClientMessage, type CuttableProxy } from '../helpers/tcp-cut.js';
import { twoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { rawBooking, vehicle } from '../rental/helpers.js';
import { startSmtp } from '../rental/journey/smtp.js';
import { startStripe } from '../rental/journey/stripe-server.js';

// Issue 37 item 8 with SMTP_URL set and with Stripe: the booking_created mail is an outbox row of the booking's own
// transaction on every path, so it exists exactly when the booking does — whatever happens to the connection around
// the COMMIT — and the delivery sends each row once, over two nodes. Node a reaches PostgreSQL through a proxy a test
// cuts (test/helpers/tcp-cut.ts, as commit-outcome.test.ts does).
const V2 = '/wp-json/rova-rental/v2';
const SK = 'sk_test_rovaLocalFake123';
const WHSEC = 'whsec_rovaLocalWebhookSecret';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n: TwoNodes;
let proxy: CuttableProxy;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stripe: Awaited<ReturnType<typeof startStripe>>;

beforeAll(async () => {
  proxy = await cuttableProxy();
  smtp = await startSmtp();
  stripe = await startStripe({ secretKey: SK });
  n = await twoNodes(
    {
      RENTAL_WRITE_RATE_LIMIT: '1000000',
      RENTAL_PUBLIC_RATE_LIMIT: '1000000',
      DATABASE_COMMIT_OUTCOME_WAIT_MS: '3000',
      SMTP_URL: smtp.url,
      BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
      STRIPE_SECRET_KEY: SK,
      STRIPE_WEBHOOK_SECRET: WHSEC,
      STRIPE_API_BASE: stripe.url,
    },
    { routeA: (url) => proxy.route(url) },
  );
}, 240_000);
afterAll(async () => {
  await n?.close();
  await proxy?.close();
  await smtp?.close();
  await stripe?.close();
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
const isCommit = (m: ClientMessage) => m.type === 'Q' && /^commit\b/i.test(text(m));
/** The customers' booking statement (its parameters carry every booking's account). */
const isBatch = (m: ClientMessage) => m.type === 'B' && text(m).includes('"account_id":');
/** The statement that writes the booking's order, payment, event and mail on the transactional path. */
const isOrder = (m: ClientMessage) => m.type === 'B' && text(m).includes('"pay":') && !isBatch(m);

type Path = 'batched' | 'first booking' | 'keyed' | 'fallback (lapsed hold)' | 'stripe' | 'stripe, keyed';
/** The paths whose booking goes in the customers' one statement (the account's record known, no key). */
const batched = (path: Path) => path === 'batched' || path === 'stripe';
const keyed = (path: Path) => path === 'keyed' || path === 'stripe, keyed';

interface Sent {
  status: number;
  body: { data?: { booking: { id: number; reference: string } } };
}

async function send(key: string, v: number, method: 'offline' | 'stripe', ikey?: string): Promise<Sent> {
  const res = await n.a.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: { 'x-rova-api-key': key, ...(ikey ? { 'idempotency-key': ikey } : {}) },
    payload: {
      vehicle_id: v,
      pickup_date: '2061-01-01',
      return_date: '2061-01-03',
      payment_method: method,
      payment_plan: 'deposit',
    },
  });
  return { status: res.statusCode, body: res.json() };
}

/** A create on `path`, with what it needs set up first; the cut is armed just before it is sent. */
async function createOn(path: Path, arm: () => Promise<number>): Promise<{ v: number; sent: Sent; cut: number }> {
  const v = await vehicle(n.a);
  const { key } = await n.a.userWithKey('customer');
  if (path !== 'first booking') {
    // the account's first booking makes its customer record, so the next ones may go in one statement
    const first = await n.a.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': key },
      payload: {
        vehicle_id: v,
        pickup_date: '2040-01-01',
        return_date: '2040-01-03',
        payment_method: 'offline',
        payment_plan: 'deposit',
      },
    });
    expect(first.statusCode, first.body).toBe(201);
  }
  if (path === 'fallback (lapsed hold)') {
    const lapsed = await rawBooking(n.a, v, '2039-06-01T10:00:00Z', '2039-06-03T10:00:00Z', 'pending_payment', {
      payment_deadline: new Date(Date.now() + 60_000).toISOString(),
    });
    await n.a.platform.db.execute(
      sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 minute', holds_slot = true WHERE id = ${lapsed}`,
    );
  }
  const armed = arm();
  const sent = await send(
    key,
    v,
    path.startsWith('stripe') ? 'stripe' : 'offline',
    keyed(path) ? `mail-${v}` : undefined,
  );
  const cut = await cutWithin(armed, 200);
  await settle();
  return { v, sent, cut };
}

interface Stored {
  reference: string;
  mails: { status: string; to_address: string; about: string }[];
}

/** The bookings of vehicle `v` picked up in 2061, each with its booking_created outbox rows. */
async function stored(v: number): Promise<Stored[]> {
  return rows<Stored>(
    n.b.platform.db,
    sql`SELECT b.reference, COALESCE((SELECT jsonb_agg(jsonb_build_object('status', m.status, 'to_address', m.to_address, 'about', m.about))
        FROM rova_mail_outbox m WHERE m.template = 'booking_created' AND m.subject LIKE '%' || b.reference), '[]') AS mails
      FROM rental_bookings b WHERE b.vehicle_id = ${v} AND b.pickup_at >= '2061-01-01' ORDER BY b.id`,
  );
}

/** Waits until the SMTP server has the booking's mail, then a little longer for a second one that must not come. */
async function deliveredOnce(reference: string): Promise<void> {
  // (the subject is folded and encoded on the wire: the body names the reference as written)
  const about = (m: { decoded: string }) => m.decoded.includes(`Reference: ${reference}`);
  await smtp.waitFor(about, 20_000);
  await sleep(1_500);
  const sent = smtp.mails.filter(about);
  expect(sent.length, `${reference} sent once`).toBe(1);
  // stored as its draft, rendered by the delivery: the .ics went with it, and the row keeps what was sent
  expect(sent[0]!.decoded).toContain('Thank you for your booking. Here are its details.');
  expect(sent[0]!.raw).toContain(`booking-${reference}.ics`);
  const [row] = await rows<{
    status: string;
    attempts: number;
    drafted: boolean;
    text_body: string | null;
    ics: string | null;
  }>(
    n.b.platform.db,
    sql`SELECT status, attempts, draft IS NOT NULL AS drafted, text_body, attachments->0->>'filename' AS ics
      FROM rova_mail_outbox WHERE template = 'booking_created' AND subject LIKE ${'%' + reference}`,
  );
  expect(row).toMatchObject({ status: 'sent', attempts: 1, drafted: true, ics: `booking-${reference}.ics` });
  expect(row!.text_body).toContain(`Reference: ${reference}`);
}

/** The booking's COMMIT: for the paths that try the statement first, the batch's; else its own transaction's. */
function commitOf(path: Path): (m: ClientMessage) => boolean {
  let seen = false;
  return (m) => {
    if (batched(path) ? isBatch(m) : isOrder(m)) seen = true;
    return seen && isCommit(m);
  };
}

describe('the booking mail with SMTP_URL and with Stripe, on every path (issue 37 item 8)', () => {
  for (const path of [
    'batched',
    'first booking',
    'keyed',
    'fallback (lapsed hold)',
    'stripe',
    'stripe, keyed',
  ] as const) {
    it(`${path}: the connection dies as the booking's writes are sent → 503, no booking and no mail`, async () => {
      const { v, sent, cut } = await createOn(path, () =>
        proxy.cutAt(batched(path) ? isBatch : isOrder, { when: 'message', partition: true }),
      );
      expect(cut, 'the cut happened').toBeGreaterThan(0);
      expect(sent.status, JSON.stringify(sent.body)).toBe(503);
      expect(await stored(v)).toEqual([]);
    }, 120_000);

    it(`${path}: the connection dies right after the COMMIT → 201, the booking with exactly one mail row, sent exactly once`, async () => {
      const { v, sent, cut } = await createOn(path, () => {
        const armed = proxy.cutAt(commitOf(path), { when: 'answer', partition: true });
        // the database comes back while the request waits to learn what its COMMIT did
        void armed.then(() => sleep(500)).then(() => proxy.restore());
        return armed;
      });
      expect(cut, 'the cut happened').toBeGreaterThan(0);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const found = await stored(v);
      expect(found.map((b) => b.reference)).toEqual([sent.body.data!.booking.reference]);
      expect(found[0]!.mails).toHaveLength(1);
      expect(found[0]!.mails[0]!.about).toBe(`booking:${sent.body.data!.booking.id}`);
      await deliveredOnce(sent.body.data!.booking.reference);
    }, 120_000);
  }

  it('stripe: the provider refuses to start the payment → 503, the booking cancelled and its held mail withdrawn, never sent', async () => {
    const v = await vehicle(n.a);
    const { key } = await n.a.userWithKey('customer');
    stripe.failNext(1);
    const sent = await send(key, v, 'stripe');
    expect(sent.status, JSON.stringify(sent.body)).toBe(503);
    const [b] = await rows<{ status: string; mails: number }>(
      n.b.platform.db,
      sql`SELECT b.status, (SELECT count(*)::int FROM rova_mail_outbox m WHERE m.template = 'booking_created' AND m.subject LIKE '%' || b.reference) AS mails
        FROM rental_bookings b WHERE b.vehicle_id = ${v}`,
    );
    expect(b).toEqual({ status: 'cancelled', mails: 0 });
  }, 60_000);
});

describe('delivery over two nodes', () => {
  /** Both nodes' own passes (nudges, polls) finished. */
  const idle = () => Promise.all([mailDeliveryOf(n.a.platform).idle(), mailDeliveryOf(n.b.platform).idle()]);
  /** Node b delivers what is due, and neither node is still at it. */
  const deliverDue = async () => {
    await idle();
    while ((await mailDeliveryOf(n.b.platform).deliverDue()) > 0);
    await idle();
  };

  /** `count` pending mails to distinct addresses, due now. */
  async function pending(tag: string, count: number): Promise<string[]> {
    const to = Array.from({ length: count }, (_, i) => `${tag}-${i}@example.test`);
    await n.b.platform.db.execute(
      sql`INSERT INTO rova_mail_outbox (to_address, subject, text_body, html_body, template, status)
        SELECT a, 'Two nodes ' || a, 'text', '<p>html</p>', 'test_delivery', 'pending' FROM unnest(${`{${to.join(',')}}`}::text[]) AS a`,
    );
    return to;
  }

  it('both nodes delivering the same outbox at once: every row sent exactly once and marked sent', async () => {
    const to = await pending('twice', 120);
    const drain = async (node: typeof n.a) => {
      let claimed = 0;
      for (let got = -1; got !== 0;) {
        got = await mailDeliveryOf(node.platform).deliverDue();
        claimed += got;
      }
      return claimed;
    };
    // each node's own passes (nudges and polls) run meanwhile as well
    mailDeliveryOf(n.a.platform).nudge();
    mailDeliveryOf(n.b.platform).nudge();
    await Promise.all([drain(n.a), drain(n.b), drain(n.a), drain(n.b)]);
    await idle();
    const received = smtp.mails.filter((m) => to.includes(m.to[0]!));
    expect(received.map((m) => m.to[0]).sort(), 'every mail once').toEqual([...to].sort());
    const states = await rows<{ status: string; attempts: number; n: number }>(
      n.b.platform.db,
      sql`SELECT status, attempts, count(*)::int AS n FROM rova_mail_outbox WHERE template = 'test_delivery' AND to_address LIKE 'twice-%' GROUP BY 1, 2`,
    );
    expect(states).toEqual([{ status: 'sent', attempts: 1, n: 120 }]);
  }, 120_000);

  it('a refused mail is tried again later, then sent; one refused every time is failed after MAIL_ATTEMPTS', async () => {
    const [once] = await pending('refused-once', 1);
    smtp.refuse(1);
    await deliverDue();
    const row = async (to: string) =>
      (
        await rows<{ status: string; attempts: number; error: string | null; wait: number }>(
          n.b.platform.db,
          sql`SELECT status, attempts, error, extract(epoch FROM not_before - now())::int AS wait FROM rova_mail_outbox WHERE to_address = ${to}`,
        )
      )[0]!;
    const refused = await row(once!);
    expect(refused).toMatchObject({
      status: 'pending',
      attempts: 1,
      error: expect.stringContaining('Try again later'),
    });
    expect(refused.wait).toBeGreaterThan(20);
    expect(smtp.mails.some((m) => m.to.includes(once!))).toBe(false);
    // its time comes
    await n.b.platform.db.execute(sql`UPDATE rova_mail_outbox SET not_before = now() WHERE to_address = ${once!}`);
    await deliverDue();
    expect(await row(once!)).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(smtp.mails.filter((m) => m.to.includes(once!))).toHaveLength(1);

    const [never] = await pending('refused-always', 1);
    smtp.refuse(1000);
    try {
      for (let i = 0; i < MAIL_ATTEMPTS; i++) {
        await n.b.platform.db.execute(sql`UPDATE rova_mail_outbox SET not_before = now() WHERE to_address = ${never!}`);
        await deliverDue();
      }
    } finally {
      smtp.refuse(0);
    }
    expect(await row(never!)).toMatchObject({ status: 'failed', attempts: MAIL_ATTEMPTS });
    await n.b.platform.db.execute(sql`UPDATE rova_mail_outbox SET not_before = now() WHERE to_address = ${never!}`);
    await deliverDue();
    expect(await row(never!), 'a failed mail stays failed').toMatchObject({
      status: 'failed',
      attempts: MAIL_ATTEMPTS,
    });
  }, 120_000);

  it('a mail whose node stopped while it was claimed is delivered by another once the claim runs out; a live claim is left alone', async () => {
    const [stale, live] = await pending('claimed', 2);
    await n.b.platform.db.execute(
      sql`UPDATE rova_mail_outbox SET status = 'sending', attempts = 1,
        claimed_until = CASE WHEN to_address = ${stale!} THEN now() - interval '1 second' ELSE now() + interval '1 hour' END
        WHERE to_address IN (${stale!}, ${live!})`,
    );
    await deliverDue();
    expect(smtp.mails.filter((m) => m.to.includes(stale!))).toHaveLength(1);
    expect(smtp.mails.filter((m) => m.to.includes(live!))).toHaveLength(0);
  }, 60_000);
});
