import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHoldExpiry } from '../../../src/modules/rental/bookings/jobs.js';
import { runPaymentReminders } from '../../../src/modules/rental/bookings/reminders/service.js';
import { rows } from '../../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { DAY, HOUR, MINUTE, moveClock } from '../clock.js';
import { vehicle } from '../helpers.js';

// Issue 35.1: pay at pick-up holds the car until pick-up, bank transfer has days (and a reminder), card the short
// hold; the desk records payments (POST /v2/bookings/{id}/payments).
const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';

interface Created {
  id: number;
  status: string;
  payment_deadline: string | null;
  payment_method: string;
  created_at: string;
  pickup_at: string;
  total: number;
  deposit: number;
}

describe('payment deadlines by method, reminders and Record payment (PGlite)', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let vendor: string;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    admin = (await t.userWithKey('administrator')).key;
    manager = (await t.userWithKey('shop_manager')).key;
    vendor = (await t.userWithKey('vendor')).key;
  }, 240_000);
  afterAll(async () => t?.close());

  let n = 0;
  const book = async (
    method: string,
    v: number,
    d1: string,
    d2: string,
    plan: 'full' | 'deposit' = 'full',
    pickupTime?: string,
  ): Promise<Created & { email: string; message: string }> => {
    n += 1;
    const email = `payer-${n}-${method}@example.test`;
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': admin },
      payload: {
        vehicle_id: v,
        pickup_date: d1,
        return_date: d2,
        ...(pickupTime ? { pickup_time: pickupTime, return_time: pickupTime } : {}),
        payment_method: method,
        payment_plan: plan,
        customer: { name: 'Desk Payer', email },
      },
    });
    expect(r.statusCode, r.body).toBe(201);
    return { ...r.json().data.booking, email, message: r.json().message };
  };
  const row = async (id: number) =>
    (
      await rows<{ status: string; holds_slot: boolean; payment_status: string; cancel_reason: string | null }>(
        t.platform.db,
        sql`SELECT status, holds_slot, payment_status, cancel_reason FROM rental_bookings WHERE id = ${id}`,
      )
    )[0]!;
  const mails = async (to: string) =>
    (
      (
        await t.inject({
          method: 'GET',
          url: `${R}/outbox?to=${encodeURIComponent(to)}`,
          headers: { 'x-rova-api-key': admin },
        })
      ).json() as { template: string; text: string }[]
    ).reverse();
  const record = (id: number, body: Record<string, unknown>, key: string | null, apiKey = manager) =>
    t.inject({
      method: 'POST',
      url: `${V2}/bookings/${id}/payments`,
      headers: { 'x-rova-api-key': apiKey, ...(key ? { 'idempotency-key': key } : {}) },
      payload: body,
    });
  const detail = async (id: number) =>
    (await t.inject({ method: 'GET', url: `${V1}/bookings/${id}`, headers: { 'x-rova-api-key': admin } })).json()
      .data as Created & {
      amount_paid: number;
      amount_due: number;
      payment_status: string;
      payments: { provider: string; method: string | null; reference: string | null; status: string; amount: number }[];
    };

  it('pay at pick-up: no deadline; still held after its old 15-minute mark, and a day later — nothing lapses, nothing is mailed', async () => {
    const v = await vehicle(t);
    const b = await book('pay_at_pickup', v, '2034-01-10', '2034-01-12');
    expect(b).toMatchObject({ status: 'pending_payment', payment_deadline: null, payment_method: 'pay_at_pickup' });
    expect(b.message).toBe('Booking reserved: the vehicle is held until pick-up, pay at the desk.');
    const card = await book('offline', v, '2034-02-10', '2034-02-12');
    // the deadline is the app's clock at creation, created_at the database's: a few milliseconds apart
    expect(Date.parse(card.payment_deadline!) - Date.parse(card.created_at)).toBeGreaterThanOrEqual(15 * MINUTE);
    expect(Date.parse(card.payment_deadline!) - Date.parse(card.created_at)).toBeLessThan(15 * MINUTE + 2000);

    await moveClock(t.platform.db, 16 * MINUTE, [b.id, card.id]);
    expect(await runHoldExpiry(t.platform)).toBe(1); // the short hold lapsed, the reservation did not
    expect(await row(b.id)).toMatchObject({ status: 'pending_payment', holds_slot: true });
    expect(await row(card.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'payment_deadline_passed' });
    await moveClock(t.platform.db, DAY, [b.id]);
    expect(await runHoldExpiry(t.platform)).toBe(0);
    expect(await runPaymentReminders(t.platform)).toBe(0);
    expect(await row(b.id)).toMatchObject({ status: 'pending_payment', holds_slot: true });
    // the slot stays taken: another booking of those dates is refused
    const other = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': admin },
      payload: {
        vehicle_id: v,
        pickup_date: '2034-01-11',
        return_date: '2034-01-13',
        payment_method: 'pay_at_pickup',
        payment_plan: 'full',
        customer: { name: 'Second', email: 'second@example.test' },
      },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().error_code).toBe('VEHICLE_NOT_AVAILABLE');
    const sent = await mails(b.email);
    expect(sent.map((m) => m.template)).toEqual(['booking_created']);
    expect(sent[0]!.text).toContain('At pick-up: the vehicle is held for you until then');
  });

  it('bank transfer: BOOKING_BANK_TRANSFER_DAYS (2) to pay, shown in the mail; one reminder a day before; lapses after', async () => {
    const v = await vehicle(t);
    const b = await book('bank_transfer', v, '2034-03-10', '2034-03-12');
    expect(Date.parse(b.payment_deadline!) - Date.parse(b.created_at)).toBeGreaterThanOrEqual(2 * DAY);
    expect(Date.parse(b.payment_deadline!) - Date.parse(b.created_at)).toBeLessThan(2 * DAY + 2000);
    expect(b.message).toBe(`Booking created: pay before ${b.payment_deadline} to confirm it.`);
    expect((await mails(b.email))[0]!.text).toMatch(/Pay by/);

    await moveClock(t.platform.db, 23 * HOUR, [b.id]); // 25 h left: not yet
    expect(await runPaymentReminders(t.platform)).toBe(0);
    await moveClock(t.platform.db, 2 * HOUR, [b.id]); // 23 h left
    expect(await runPaymentReminders(t.platform)).toBe(1);
    expect(await runPaymentReminders(t.platform)).toBe(0); // a re-run sends nothing more
    expect((await Promise.all([1, 2, 3].map(() => runPaymentReminders(t.platform)))).reduce((a, x) => a + x)).toBe(0);
    expect(await runHoldExpiry(t.platform)).toBe(0);
    expect(await row(b.id)).toMatchObject({ status: 'pending_payment', holds_slot: true });

    await moveClock(t.platform.db, 23 * HOUR + MINUTE, [b.id]); // past the deadline
    expect(await runHoldExpiry(t.platform)).toBe(1);
    expect(await row(b.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'payment_deadline_passed' });
    const sent = await mails(b.email);
    expect(sent.map((m) => m.template)).toEqual(['booking_created', 'payment_reminder', 'booking_cancelled']);
    expect(sent[1]!.text).toContain('We have not received your payment yet');
  });

  it('bank transfer picked up sooner than the days: the deadline is the pick-up; no reminder for a hold shorter than the window', async () => {
    const v = await vehicle(t);
    // picked up 20 hours from now, whatever the time of day: the hold is shorter than the 24-hour reminder window
    const at = new Date(Math.ceil((Date.now() + 20 * HOUR) / HOUR) * HOUR);
    const after = new Date(at.getTime() + 2 * DAY).toISOString().slice(0, 10);
    const b = await book(
      'bank_transfer',
      v,
      at.toISOString().slice(0, 10),
      after,
      'full',
      at.toISOString().slice(11, 16),
    );
    expect(b.payment_deadline).toBe(b.pickup_at);
    await moveClock(t.platform.db, 2 * HOUR, [b.id]);
    expect(await runPaymentReminders(t.platform)).toBe(0);
  });

  it('Record payment: Idempotency-Key required; least privilege; full confirms; a replay records once; the detail shows paid and due', async () => {
    const v = await vehicle(t);
    const b = await book('bank_transfer', v, '2034-04-10', '2034-04-12');
    const body = { kind: 'full', method: 'bank_transfer', reference: 'TRX-4411' };

    const noKey = await record(b.id, body, null);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toMatchObject({ error_code: 'INVALID_PARAMS', details: { field: 'Idempotency-Key' } });
    expect((await record(b.id, body, 'k-vendor', vendor)).statusCode).toBe(403);
    const customer = (await t.userWithKey('customer')).key;
    expect((await record(b.id, body, 'k-customer', customer)).statusCode).toBe(403);
    const readOnly = (await t.userWithKey('shop_manager', ['read'])).key;
    expect((await record(b.id, body, 'k-read', readOnly)).statusCode).toBe(403);
    expect((await record(b.id, { ...body, amount: b.total + 1 }, 'k-over')).json()).toMatchObject({
      error_code: 'INVALID_PARAMS',
      details: { field: 'amount' },
    });
    expect((await record(b.id, { ...body, method: 'cheque' }, 'k-bad')).statusCode).toBe(400);
    expect((await record(999999, body, 'k-none')).statusCode).toBe(404);

    const ok = await record(b.id, body, 'k-full');
    expect(ok.statusCode).toBe(201);
    const total = b.total.toFixed(2);
    expect(ok.json()).toMatchObject({
      success: true,
      message: 'Payment recorded; booking confirmed.',
      data: {
        outcome: 'confirmed',
        amount: total,
        paid: total,
        due: '0.00',
        booking: { status: 'confirmed', payment_status: 'paid', payment_deadline: null },
      },
    });
    const again = await record(b.id, body, 'k-full');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(ok.json());
    expect((await record(b.id, { ...body, reference: 'other' }, 'k-full')).statusCode).toBe(422);
    const nothing = await record(b.id, body, 'k-more');
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().details).toMatchObject({ reason: 'nothing_due' });

    const d = await detail(b.id);
    expect(d).toMatchObject({ amount_paid: b.total, amount_due: 0, payment_status: 'paid', status: 'confirmed' });
    const succeeded = d.payments.filter((p) => p.status === 'succeeded');
    expect(succeeded).toEqual([
      expect.objectContaining({ provider: 'offline', method: 'bank_transfer', reference: 'TRX-4411', amount: b.total }),
    ]);
    const events = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_events WHERE type = 'payment.succeeded' AND (payload->'data'->>'booking_id')::int = ${b.id}`,
    );
    expect(events[0]!.n).toBe(1);
    const sent = (await mails(b.email)).map((m) => m.template);
    expect(sent).toEqual(['booking_created', 'payment_received', 'booking_confirmed']);
    // every attempt is in the audit log (the refused ones too), the recorded ones with the booking as target
    await expect
      .poll(async () =>
        (
          await rows<{ target: string | null; status: number; outcome: string }>(
            t.platform.db,
            sql`SELECT target, status, outcome FROM rova_audit_log WHERE path = ${`${V2}/bookings/${b.id}/payments`} ORDER BY id`,
          )
        ).map((x) => `${x.status} ${x.outcome}${x.status === 201 ? ` ${x.target}` : ''}`),
      )
      .toEqual([
        '400 failure',
        '403 denied',
        '403 denied',
        '403 denied',
        '400 failure',
        '400 failure',
        `201 success booking:${b.id}`,
        `201 success booking:${b.id}`,
        '422 failure',
        '409 failure',
      ]);
  });

  it('Record payment: a deposit, then the rest; the detail, the list and the planner filter "payment due"', async () => {
    const v = await vehicle(t, { deposit_percent: 20 });
    const b = await book('pay_at_pickup', v, '2034-05-10', '2034-05-13', 'deposit');
    expect(b.deposit).toBeGreaterThan(0);
    const dep = await record(b.id, { kind: 'deposit', method: 'cash' }, 'k-dep');
    expect(dep.statusCode).toBe(201);
    const due = (b.total - b.deposit).toFixed(2);
    expect(dep.json().data).toMatchObject({
      outcome: 'confirmed',
      amount: b.deposit.toFixed(2),
      due,
      booking: { status: 'confirmed', payment_status: 'deposit_paid' },
    });
    expect(await detail(b.id)).toMatchObject({ amount_paid: b.deposit, amount_due: Number(due) });
    const listed = async () =>
      (
        (
          await t.inject({
            method: 'GET',
            url: `${V1}/bookings?payment_due=true&vehicle_id=${v}`,
            headers: { 'x-rova-api-key': admin },
          })
        ).json().data.items as { id: number }[]
      ).map((x) => x.id);
    const planned = async () =>
      (
        await t.inject({
          method: 'GET',
          url: `${V1}/admin/planner?from=2034-05-01&to=2034-05-31&payment_due=true`,
          headers: { 'x-rova-api-key': admin },
        })
      ).json().data.bookings as { id: number; payment_due: boolean }[];
    expect(await listed()).toEqual([b.id]);
    expect((await planned()).filter((x) => x.id === b.id)).toEqual([
      expect.objectContaining({ id: b.id, payment_due: true }),
    ]);
    // a deposit asked again is refused: none is left
    expect((await record(b.id, { kind: 'deposit', method: 'cash' }, 'k-dep2')).json().details).toMatchObject({
      field: 'kind',
    });
    const rest = await record(b.id, { kind: 'full', method: 'card_terminal', reference: 'POS-9' }, 'k-rest');
    expect(rest.json().data).toMatchObject({
      outcome: 'recorded',
      amount: due,
      due: '0.00',
      booking: { status: 'confirmed', payment_status: 'paid' },
    });
    expect(await listed()).toEqual([]);
    expect((await planned()).some((x) => x.id === b.id)).toBe(false);
  });

  it('Record payment takes back a bank transfer that lapsed while its slot is free; 409 when it was taken', async () => {
    const v = await vehicle(t);
    const b = await book('bank_transfer', v, '2034-06-10', '2034-06-12');
    await moveClock(t.platform.db, 2 * DAY + MINUTE, [b.id]);
    expect(await runHoldExpiry(t.platform)).toBe(1);
    const back = await record(b.id, { kind: 'full', method: 'bank_transfer', reference: 'LATE-1' }, 'k-late');
    expect(back.statusCode).toBe(201);
    expect(back.json().data).toMatchObject({ outcome: 'confirmed', booking: { status: 'confirmed' } });

    const c = await book('bank_transfer', v, '2034-07-10', '2034-07-12');
    await moveClock(t.platform.db, 2 * DAY + MINUTE, [c.id]);
    await book('pay_at_pickup', v, '2034-07-10', '2034-07-12'); // sweeps c and takes its slot
    const taken = await record(c.id, { kind: 'full', method: 'bank_transfer' }, 'k-taken');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error_code: 'VEHICLE_NOT_AVAILABLE' });
    expect(await row(c.id)).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
  });
});

describe('demo data never lapses on a restart (PGlite)', () => {
  it('seeded, three days later, restarted: the jobs cancel nothing and mail nobody', async () => {
    const first = await makeApp({ demo: true });
    let waiting: number;
    let dump: Blob;
    try {
      const w = await rows<{ n: number; deadlines: number }>(
        first.platform.db,
        sql`SELECT count(*)::int AS n, count(payment_deadline)::int AS deadlines FROM rental_bookings WHERE status IN ('pending_payment', 'pending')`,
      );
      waiting = w[0]!.n;
      expect(waiting).toBeGreaterThan(0);
      expect(w[0]!.deadlines).toBe(0);
      await moveClock(first.platform.db, 3 * DAY);
      const { dataDirDump } = await import('../../helpers/app.js');
      dump = await dataDirDump(first);
    } finally {
      await first.close();
    }
    const restarted = await makeApp({ fromDump: dump });
    try {
      expect(await runPaymentReminders(restarted.platform)).toBe(0);
      expect(await runHoldExpiry(restarted.platform)).toBe(0);
      const after = await rows<{ n: number; mails: number }>(
        restarted.platform.db,
        sql`SELECT (SELECT count(*)::int FROM rental_bookings WHERE status IN ('pending_payment', 'pending') AND holds_slot) AS n,
                   (SELECT count(*)::int FROM rova_mail_outbox WHERE template IN ('booking_cancelled', 'payment_reminder')) AS mails`,
      );
      expect(after[0]).toEqual({ n: waiting, mails: 0 });
    } finally {
      await restarted.close();
    }
  }, 240_000);
});
