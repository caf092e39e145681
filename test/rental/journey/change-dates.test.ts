// Issue 36 item 6: the customer moves one of their bookings to other dates or another vehicle of the same category
// from their account — a quote first, then the change (Idempotency-Key), by the operator's rules of a move (lock,
// overlap, vehicle blocks, pricing engine, money settled) and the customer's own (status, before pick-up, category,
// the cancellation fee on a late shortening).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { rows } from '../../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { parseIcs, icsInstant } from '../../helpers/ics.js';
import { rawBooking, vehicle } from '../helpers.js';
import { outboxMails } from '../../helpers/outbox.js';

const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  // free cancellation until 5 years before the pick-up: bookings from 2036 change free, those of 2028 late
  t = await makeApp({
    env: { RENTAL_WRITE_RATE_LIMIT: '1000000', BOOKING_FREE_CANCEL_HOURS: String(5 * 365 * 24) },
  });
  admin = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
}, 240_000);
afterAll(async () => t?.close());

let day = 0;
interface Made {
  id: number;
  reference: string;
  vehicle: number;
  email: string;
  customer: Record<string, string>;
  d: (n: number) => string;
}
/** A customer's 2-day booking (100.00 a day) of a new vehicle, from `year`; paid in full offline unless `paid` is false. */
async function booking(opts: { year?: number; paid?: boolean; vehicle?: number } = {}): Promise<Made> {
  day += 7;
  const year = opts.year ?? 2037;
  const d = (n: number) => new Date(Date.UTC(year, 0, 1) + (day + n) * 86_400_000).toISOString().slice(0, 10);
  const v = opts.vehicle ?? (await vehicle(t));
  const user = await t.userWithKey('customer');
  const customer = { 'x-rova-api-key': user.key };
  const created = await t.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: customer,
    payload: { vehicle_id: v, pickup_date: d(0), return_date: d(2), payment_method: 'offline', payment_plan: 'full' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const b = created.json().data.booking as { id: number; reference: string; customer_email: string };
  if (opts.paid !== false)
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/bookings/${b.id}/mark-paid`, headers: admin })).json().data.outcome,
    ).toBe('confirmed');
  return { id: b.id, reference: b.reference, vehicle: v, email: b.customer_email, customer, d };
}

const quote = (m: Made, body: Record<string, unknown>, headers = m.customer) =>
  t.inject({ method: 'POST', url: `${V2}/my/bookings/${m.id}/change/quote`, headers, payload: body });
const change = (m: Made, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
  t.inject({
    method: 'POST',
    url: `${V2}/my/bookings/${m.id}/change`,
    headers: { ...m.customer, ...extra },
    payload: body,
  });
const row = async (id: number) =>
  (
    await rows<{ vehicle_id: string; total: string; pickup_at: string; status: string; payment_status: string }>(
      t.platform.db,
      sql`SELECT vehicle_id::text, total::text, pickup_at::text, status, payment_status FROM rental_bookings WHERE id = ${id}`,
    )
  )[0]!;
const refunds = (id: number) =>
  rows<{ amount: string; reason: string }>(
    t.platform.db,
    sql`SELECT amount::text, reason FROM rental_refunds WHERE booking_id = ${id} ORDER BY id`,
  );
const clean = async () => expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);
/** The outbox's last row now: the mails a change writes are those after it. */
const lastMail = async () =>
  (await rows<{ n: number }>(t.platform.db, sql`SELECT coalesce(max(id), 0)::int AS n FROM rova_mail_outbox`))[0]!.n;
const mailsSince = async (to: string, after: number) =>
  (await outboxMails(t.platform, sql`m.to_address = ${to} AND m.id > ${after}`)).map(({ template, text_body }) => ({
    template,
    text_body,
  }));
/** A booking mail's instant as it names it (the store's time zone, UTC here). */
const mailTime = (date: string, time: string) =>
  `${new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).format(new Date(`${date}T${time}:00Z`))} (UTC)`;

describe('the quote', () => {
  it('answers the new price lines and the difference of a dearer change, and writes nothing', async () => {
    const m = await booking();
    const before = await row(m.id);
    const r = await quote(m, { pickup_date: m.d(0), return_date: m.d(3) });
    expect(r.statusCode, r.body).toBe(200);
    const q = r.json().data;
    expect(q).toMatchObject({
      previous_total: 200,
      total: 300,
      difference: 100,
      fee: 0,
      refund: 0,
      due: 100,
      payment_status: 'partially_paid',
      currency: 'USD',
      vehicle_category: 'economy',
      booking: { id: m.id, days: 3, total: 300 },
    });
    expect(q.lines).toEqual([
      { kind: 'rental', code: null, description: 'Rental, 3 day(s)', amount: 300 },
      { kind: 'tax', code: null, description: 'Tax', amount: 0 },
    ]);
    expect(await row(m.id)).toEqual(before);
    expect(await refunds(m.id)).toEqual([]);
  });

  it('another customer’s booking is a 404, an anonymous caller a 401', async () => {
    const m = await booking({ paid: false });
    const other = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    const body = { pickup_date: m.d(1), return_date: m.d(3) };
    const r = await quote(m, body, other);
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ success: false, error_code: 'RESOURCE_NOT_FOUND' });
    expect((await change({ ...m, customer: other }, body)).statusCode).toBe(404);
    expect((await quote(m, body, {})).statusCode).toBe(401);
  });
});

describe('the change', () => {
  it('dearer, paid: the difference is due and paid through pay-due; booking_changed mail with the new dates as .ics; event, audit', async () => {
    const m = await booking();
    const before = await lastMail();
    const r = await change(m, { pickup_date: m.d(1), return_date: m.d(4), pickup_time: '10:00', return_time: '10:00' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      success: true,
      message: 'Booking changed; the difference is due.',
      data: { previous_total: 200, total: 300, difference: 100, due: 100, refund: 0, payment_status: 'partially_paid' },
    });
    // one mail: what changed (the new dates), the new price, what is due and how to pay it, with the links
    const sent = await mailsSince(m.email, before);
    expect(sent.map((x) => x.template)).toEqual(['booking_changed']);
    for (const line of [
      `Pick-up: ${mailTime(m.d(1), '10:00')}`,
      `Return: ${mailTime(m.d(4), '10:00')}`,
      'Previous total: 200.00 USD',
      'Total: 300.00 USD',
      'Paid: 200.00 USD',
      'Amount due: 100.00 USD',
      `How to pay: `,
      `Reference: ${m.reference}. Amount due: 100.00 USD.`,
      'View your booking',
      'Manage your booking without signing in',
    ])
      expect(sent[0]!.text_body).toContain(line);
    expect(await row(m.id)).toMatchObject({ total: '300.00', payment_status: 'partially_paid', status: 'confirmed' });
    const detail = (await t.inject({ method: 'GET', url: `${V2}/my/bookings/${m.id}`, headers: m.customer })).json()
      .data;
    expect(detail.balance).toMatchObject({ paid: 200, due: 100, provider: 'offline' });
    const pay = await t.inject({
      method: 'POST',
      url: `${V2}/my/bookings/${m.id}/pay-due`,
      headers: m.customer,
      payload: {},
    });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(pay.json().data).toMatchObject({ provider: 'offline', amount: 100, currency: 'USD' });
    const [mail] = await outboxMails(t.platform, sql`m.to_address = ${m.email} AND m.template = 'booking_changed'`);
    expect(mail!.subject).toBe(`[Rova] Booking changed — ${m.reference}`);
    expect(mail!.text_body).toContain('Your booking has been changed. Here are its new details.');
    expect(mail!.text_body).toContain('Previous total: 200.00 USD');
    expect(mail!.text_body).toContain('Amount due: 100.00 USD');
    const ics = parseIcs(mail!.attachments[0]!.content);
    expect(icsInstant(ics.event.DTSTART!).toISOString()).toBe(`${m.d(1)}T10:00:00.000Z`);
    expect(icsInstant(ics.event.DTEND!).toISOString()).toBe(`${m.d(4)}T10:00:00.000Z`);
    const events = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_events WHERE type = 'booking.repriced' AND payload->'data'->>'booking_id' = ${String(m.id)}`,
    );
    expect(events[0]!.n).toBe(1);
    await expect
      .poll(async () =>
        (
          await rows<{ target: string; status: number }>(
            t.platform.db,
            sql`SELECT target, status FROM rova_audit_log WHERE path = ${`${V2}/my/bookings/${m.id}/change`}`,
          )
        ).map((x) => `${x.status} ${x.target}`),
      )
      .toEqual([`200 booking:${m.id}`]);
    await clean();
  });

  it('cheaper, paid, before the free-cancellation deadline: the overpaid part is refunded in full; one mail says so', async () => {
    const m = await booking();
    const before = await lastMail();
    const r = await change(m, { pickup_date: m.d(0), return_date: m.d(1) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      message: 'Booking changed; the difference is refunded.',
      data: { total: 100, difference: -100, fee: 0, refund: 100, due: 0, payment_status: 'paid' },
    });
    expect(await refunds(m.id)).toEqual([{ amount: '100.00', reason: 'booking_repriced' }]);
    const sent = await mailsSince(m.email, before);
    expect(sent.map((x) => x.template)).toEqual(['booking_changed']);
    expect(sent[0]!.text_body).toContain(`Return: ${mailTime(m.d(1), '10:00')}`);
    expect(sent[0]!.text_body).toContain('Total: 100.00 USD');
    expect(sent[0]!.text_body).toContain('Refund: 100.00 USD');
    expect(sent[0]!.text_body).not.toContain('Amount due');
    await clean();
  });

  it('cheaper, paid, after the deadline: the cancellation fee (20 %) of the refund is kept as a change fee', async () => {
    const m = await booking({ year: 2028 });
    const q = (await quote(m, { pickup_date: m.d(0), return_date: m.d(1) })).json().data;
    expect(q).toMatchObject({ total: 120, difference: -80, fee: 20, refund: 80, due: 0 });
    expect(q.lines.at(-1)).toEqual({ kind: 'change_fee', code: null, description: 'Change fee', amount: 20 });
    const r = await change(m, { pickup_date: m.d(0), return_date: m.d(1) });
    expect(r.json().data).toMatchObject({ total: 120, fee: 20, refund: 80, payment_status: 'paid' });
    expect(await refunds(m.id)).toEqual([{ amount: '80.00', reason: 'booking_repriced' }]);
    await clean();
  });

  it('unpaid: the new total is asked, nothing due or refunded; a dearer late change keeps no fee', async () => {
    const m = await booking({ paid: false, year: 2028 });
    const r = await change(m, { pickup_date: m.d(0), return_date: m.d(1) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ total: 100, fee: 0, refund: 0, due: 0, payment_status: 'unpaid' });
    const pays = await rows<{ amount: string; status: string }>(
      t.platform.db,
      sql`SELECT amount::text, status FROM rental_payments WHERE booking_id = ${m.id}`,
    );
    expect(pays).toEqual([{ amount: '100.00', status: 'pending' }]);
    await clean();
  });

  it('another vehicle of the same category: moved and re-priced; another category → 400, an unknown vehicle → 404', async () => {
    const m = await booking();
    const same = await vehicle(t, { price_per_day: '150.00' });
    const suv = await vehicle(t, { category: 'suv' });
    const body = { pickup_date: m.d(0), return_date: m.d(2) };
    const wrong = await change(m, { ...body, vehicle_id: suv });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      message: 'Choose a vehicle of the same category (economy).',
    });
    expect((await change(m, { ...body, vehicle_id: 999_999 })).statusCode).toBe(404);
    const r = await change(m, { ...body, vehicle_id: same });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ booking: { vehicle_id: same }, total: 300, due: 100 });
    expect((await row(m.id)).vehicle_id).toBe(String(same));
    await clean();
  });

  it('dates taken by another booking or a vehicle block → 409 VEHICLE_NOT_AVAILABLE, nothing changed', async () => {
    const m = await booking();
    await rawBooking(t, m.vehicle, `${m.d(10)}T10:00:00Z`, `${m.d(12)}T10:00:00Z`, 'confirmed');
    const taken = await change(m, { pickup_date: m.d(9), return_date: m.d(11) });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      error_code: 'VEHICLE_NOT_AVAILABLE',
      message: 'The vehicle is not available for these dates (booked).',
    });
    await t.platform.db.execute(
      sql`INSERT INTO rental_vehicle_blocks (vehicle_id, from_date, to_date, starts_at, ends_at, reason)
          VALUES (${m.vehicle}, ${m.d(20)}, ${m.d(21)}, ${`${m.d(20)}T00:00:00Z`}, ${`${m.d(22)}T00:00:00Z`}, 'maintenance')`,
    );
    const blocked = await change(m, { pickup_date: m.d(19), return_date: m.d(21) });
    expect(blocked.statusCode).toBe(409);
    // a block holds the vehicle like a booking does, for a new booking too, and is named as a block
    expect(blocked.json()).toMatchObject({
      error_code: 'VEHICLE_NOT_AVAILABLE',
      message: 'The vehicle is not available for these dates (blocked).',
    });
    expect((await row(m.id)).total).toBe('200.00');
  });

  it('refused in statuses where it makes no sense and once the pick-up time has passed (409), for bad input (400)', async () => {
    const cancelled = await booking({ paid: false });
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/my/bookings/${cancelled.id}/cancel`, headers: cancelled.customer }))
        .statusCode,
    ).toBe(200);
    const r1 = await change(cancelled, { pickup_date: cancelled.d(1), return_date: cancelled.d(3) });
    expect(r1.statusCode).toBe(409);
    expect(r1.json()).toMatchObject({
      error_code: 'STATE_CONFLICT',
      message: 'This booking is cancelled: it can no longer be changed.',
    });
    // picked up: in progress
    const started = await booking();
    await t.platform.db.execute(sql`UPDATE rental_bookings SET status = 'in_progress' WHERE id = ${started.id}`);
    expect((await change(started, { pickup_date: started.d(1), return_date: started.d(3) })).json().message).toBe(
      'This booking is in_progress: it can no longer be changed.',
    );
    // confirmed but its pick-up time has passed
    const late = await booking();
    await t.platform.db.execute(
      sql`UPDATE rental_bookings SET pickup_at = now() - interval '1 hour', return_at = now() + interval '1 day' WHERE id = ${late.id}`,
    );
    const r3 = await change(late, { pickup_date: late.d(1), return_date: late.d(3) });
    expect(r3.statusCode).toBe(409);
    expect(r3.json().message).toBe('The pick-up time has passed: the booking can no longer be changed.');
    // input
    const m = await booking({ paid: false });
    expect((await change(m, { pickup_date: m.d(3), return_date: m.d(1) })).json()).toMatchObject({
      error_code: 'INVALID_DATE_RANGE',
    });
    expect((await change(m, { pickup_date: m.d(1) })).statusCode).toBe(400);
    // the dates it has already: nothing to change
    for (const r of [
      await quote(m, { pickup_date: m.d(0), return_date: m.d(2) }),
      await change(m, { pickup_date: m.d(0), return_date: m.d(2) }),
    ]) {
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({
        error_code: 'INVALID_PARAMS',
        message: 'The booking already has these dates and this vehicle.',
      });
    }
    expect((await change(m, { pickup_date: m.d(1), return_date: m.d(3), total: 1 })).statusCode).toBe(400);
    const past = await change(m, { pickup_date: '2020-01-01', return_date: '2020-01-03' });
    expect(past.statusCode).toBe(409);
    expect(past.json()).toMatchObject({
      error_code: 'VEHICLE_NOT_AVAILABLE',
      message: 'The vehicle is not available for these dates (min_notice).',
    });
  });

  it('Idempotency-Key: a retry answers the first answer without changing again; another body with the key → 422', async () => {
    const m = await booking();
    const key = { 'idempotency-key': `chg-${m.id}` };
    const body = { pickup_date: m.d(0), return_date: m.d(3) };
    const first = await change(m, body, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await change(m, body, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await change(m, { ...body, return_date: m.d(4) }, key)).statusCode).toBe(422);
    expect(await row(m.id)).toMatchObject({ total: '300.00' });
    const pays = await rows<{ amount: string; status: string }>(
      t.platform.db,
      sql`SELECT amount::text, status FROM rental_payments WHERE booking_id = ${m.id} ORDER BY id`,
    );
    expect(pays).toEqual([
      { amount: '200.00', status: 'succeeded' },
      { amount: '100.00', status: 'pending' },
    ]);
  });
});
