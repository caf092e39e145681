// A price change that leaves an amount due asks the customer for it — a mail written in the change's
// transaction, the balance on their booking, and "pay the rest" (Stripe PaymentIntent for the difference, or the
// offline instructions) — against the local Stripe-speaking server.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockBooking } from '../../../src/modules/rental/bookings/lock.js';
import { LapsedHolds } from '../../../src/modules/rental/bookings/expiry.js';
import { runHoldExpiry } from '../../../src/modules/rental/bookings/jobs.js';
import { EXPIRED_REASON } from '../../../src/modules/rental/bookings/repo.js';
import { repriceBooking } from '../../../src/modules/rental/bookings/reprice.js';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { rows } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';
import { stripeApp, type StripeApp } from './stripe-app.js';
import { stripeEvent } from './stripe-server.js';
import { outboxMails } from '../../helpers/outbox.js';
import { DAY, MINUTE, moveClock } from '../clock.js';

const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
let fake: StripeApp['fake'];
let admin: Record<string, string>;
let stripe: StripeApp;
beforeAll(async () => {
  stripe = await stripeApp({ STRIPE_API_TIMEOUT_MS: '400', PAYMENT_OFFLINE_INSTRUCTIONS: 'Pay at the desk.' });
  ({ t, fake, admin } = stripe);
}, 240_000);
afterAll(async () => stripe?.close());

let day = 0;
const date = (n: number) => new Date(Date.UTC(2038, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const signed = (payload: string) => stripe.signed(payload);
const put = (id: number, body: Record<string, unknown>) =>
  t.inject({ method: 'PUT', url: `${V1}/bookings/${id}`, headers: admin, payload: body });
const clean = async () => expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);
const payments = (id: number) =>
  rows<{ id: number; provider: string; status: string; amount: string; external_id: string | null }>(
    t.platform.db,
    sql`SELECT id::int AS id, provider, status, amount::text AS amount, external_id FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  );
const mails = async (to: string) =>
  (await outboxMails(t.platform, sql`m.to_address = ${to} AND m.template = 'amount_due'`)).map(
    ({ template, subject, text_body }) => ({ template, subject, text_body }),
  );

interface Made {
  id: number;
  reference: string;
  first: number;
  email: string;
  customer: Record<string, string>;
}
interface Booked extends Made {
  status: string;
  /** The create answer's data (amount_due, booking). */
  answer: Record<string, unknown>;
}
/**
 * A new customer's 4-day booking (100.00 a day) of a new vehicle (`car`: its other fields, e.g. a deposit), paid by
 * `method` on `plan`, nothing paid yet.
 */
async function newBooking(
  method: 'offline' | 'stripe' | 'pay_at_pickup' | 'bank_transfer',
  plan: 'full' | 'deposit' = 'full',
  car: Record<string, unknown> = {},
): Promise<Booked> {
  day += 10;
  const user = await t.userWithKey('customer');
  const customer = { 'x-rova-api-key': user.key };
  const created = await t.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: customer,
    payload: {
      vehicle_id: await vehicle(t, car),
      pickup_date: date(day),
      return_date: date(day + 4),
      payment_method: method,
      payment_plan: plan,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const answer = created.json().data as Record<string, unknown>;
  const b = answer.booking as { id: number; reference: string; customer_email: string; status: string };
  return { id: b.id, reference: b.reference, first: day, email: b.customer_email, customer, status: b.status, answer };
}
/** A customer's 4-day booking (100.00 a day), paid in full with the provider. */
async function paidBooking(provider: 'offline' | 'stripe'): Promise<Made> {
  const b = await newBooking(provider);
  if (provider === 'offline')
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/bookings/${b.id}/mark-paid`, headers: admin })).statusCode,
    ).toBe(200);
  else await succeed((await payments(b.id))[0]!.external_id!, 'confirmed');
  return b;
}
async function succeed(intent: string, outcome: string) {
  const r = await signed(stripeEvent('payment_intent.succeeded', fake.succeed(intent)));
  expect(r.json().data.outcome, r.body).toBe(outcome);
}
const detail = async (m: Made) => {
  const r = await t.inject({ method: 'GET', url: `${V2}/my/bookings/${m.id}`, headers: m.customer });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as { payment_status: string; total: number; balance: Record<string, unknown> };
};
const payDue = (m: Made, body?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.inject({
    method: 'POST',
    url: `${V2}/my/bookings/${m.id}/pay-due`,
    headers: { ...m.customer, ...headers },
    payload: body ?? {},
  });
const intentsOf = (id: number) => [...fake.intents.values()].filter((pi) => pi.metadata.booking_id === String(id));

describe('an amount due is asked of the customer', () => {
  it('card: the mail says what is due; the booking shows paid and due; pay-due answers the intent of the difference (the same on a repeat); paid → paid, verify clean', async () => {
    const m = await paidBooking('stripe');
    expect((await put(m.id, { return_date: date(m.first + 6) })).statusCode).toBe(200);
    const [mail] = await mails(m.email);
    expect(mail).toMatchObject({ template: 'amount_due', subject: `[Rova] Amount due — ${m.reference}` });
    expect(mail!.text_body).toContain('Total: 600.00 USD');
    expect(mail!.text_body).toContain('Paid: 400.00 USD');
    expect(mail!.text_body).toContain('Amount due: 200.00 USD');
    expect(mail!.text_body).toContain('How to pay: Pay the rest by card from this booking in your account.');
    expect(await detail(m)).toMatchObject({
      payment_status: 'partially_paid',
      total: 600,
      balance: { paid: 400, due: 200, currency: 'USD', provider: 'stripe', instructions: null },
    });
    const calls = fake.calls.length;
    const r = await payDue(m);
    expect(r.statusCode, r.body).toBe(200);
    const due = (await payments(m.id))[1]!;
    const pi = fake.intents.get(due.external_id!)!;
    expect(r.json().data).toEqual({
      booking_id: m.id,
      payment_id: due.id,
      provider: 'stripe',
      amount: 200,
      currency: 'USD',
      client_secret: pi.client_secret,
    });
    expect(pi).toMatchObject({ amount: 20000, status: 'requires_payment_method' });
    // a repeat finds the same intent again (one GET, no second intent)
    expect((await payDue(m)).json().data.client_secret).toBe(pi.client_secret);
    expect(fake.calls.slice(calls).map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /v1/payment_intents/${pi.id}`,
      `GET /v1/payment_intents/${pi.id}`,
    ]);
    await succeed(pi.id, 'balance_paid');
    expect(await detail(m)).toMatchObject({
      payment_status: 'paid',
      balance: { paid: 600, due: 0, provider: null },
    });
    expect((await payDue(m)).statusCode).toBe(409);
    await clean();
  });

  it('offline: the mail and the booking give the instructions; paying by card instead supersedes the offline request', async () => {
    const m = await paidBooking('offline');
    expect((await put(m.id, { return_date: date(m.first + 5) })).statusCode).toBe(200);
    const how = `Pay at the desk. Reference: ${m.reference}. Amount due: 100.00 USD.`;
    expect((await mails(m.email))[0]!.text_body).toContain(`How to pay: ${how}`);
    expect((await detail(m)).balance).toEqual({
      paid: 400,
      due: 100,
      currency: 'USD',
      provider: 'offline',
      instructions: how,
    });
    const off = await payDue(m);
    expect(off.json().data).toMatchObject({ provider: 'offline', amount: 100, instructions: how });
    const card = await payDue(m, { payment_method: 'stripe' });
    expect(card.statusCode, card.body).toBe(200);
    const pays = await payments(m.id);
    expect(pays.map((x) => [x.provider, x.status, x.amount])).toEqual([
      ['offline', 'succeeded', '400.00'],
      ['offline', 'cancelled', '100.00'],
      ['stripe', 'pending', '100.00'],
    ]);
    expect(card.json().data).toMatchObject({ provider: 'stripe', payment_id: pays[2]!.id, amount: 100 });
    await clean();
    await succeed(pays[2]!.external_id!, 'balance_paid');
    expect((await detail(m)).payment_status).toBe('paid');
    // the superseded offline request can no longer be marked paid (nothing is pending)
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/bookings/${m.id}/mark-paid`, headers: admin })).statusCode,
    ).toBe(409);
    await clean();
  });

  it('Stripe down when the customer asks: 503 naming the provider, it stays due; asked again later: one intent', async () => {
    const m = await paidBooking('offline');
    expect((await put(m.id, { return_date: date(m.first + 5) })).statusCode).toBe(200);
    fake.fault('unavailable', 3, { path: /^\/v1\/payment_intents$/ });
    const down = await payDue(m, { payment_method: 'stripe' });
    expect(down.statusCode, down.body).toBe(503);
    expect(down.json()).toMatchObject({
      error_code: 'SERVICE_UNAVAILABLE',
      details: { reason: 'payment_provider_error' },
    });
    expect((await detail(m)).balance).toMatchObject({ due: 100, provider: 'stripe' });
    const again = await payDue(m);
    expect(again.statusCode, again.body).toBe(200);
    const pays = await payments(m.id);
    expect(pays.filter((x) => x.provider === 'stripe')).toHaveLength(1);
    expect([...fake.intents.values()].filter((x) => x.metadata.booking_id === String(m.id))).toHaveLength(1);
    await clean();
  });

  it('nothing due, or not mine: 409 and 404; a shortened booking sends no amount-due mail', async () => {
    const m = await paidBooking('stripe');
    expect((await payDue(m)).statusCode).toBe(409);
    const other = { ...m, customer: { 'x-rova-api-key': (await t.userWithKey('customer')).key } };
    expect((await payDue(other)).statusCode).toBe(404);
    expect((await put(m.id, { return_date: date(m.first + 2) })).statusCode).toBe(200);
    expect(await mails(m.email)).toEqual([]);
    expect((await payDue(m, { payment_method: 'paypal' })).statusCode).toBe(400);
  });

  it('Idempotency-Key: a replay answers the first answer (Idempotent-Replayed), no second Stripe call or payment; another body → 422; the answer sealed; keys per caller', async () => {
    const m = await paidBooking('stripe');
    const n = await paidBooking('stripe');
    expect((await put(m.id, { return_date: date(m.first + 5) })).statusCode).toBe(200);
    expect((await put(n.id, { return_date: date(n.first + 5) })).statusCode).toBe(200);
    const key = { 'idempotency-key': 'my-pay-1' };
    const first = await payDue(m, { payment_method: 'stripe' }, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const calls = fake.calls.length;
    const again = await payDue(m, { payment_method: 'stripe' }, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // the replay did not reach Stripe: no call at all (not even the repeat's GET of the intent), one payment asked
    expect(fake.calls.length).toBe(calls);
    expect((await payments(m.id)).filter((x) => x.status === 'pending')).toHaveLength(1);
    expect(intentsOf(m.id)).toHaveLength(2);
    // the client secret is kept sealed in the key's row
    const kept = await rows<{ answer: unknown }>(
      t.platform.db,
      sql`SELECT response_body AS answer FROM rova_idempotent_requests WHERE key = 'my-pay-1'`,
    );
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept[0]!.answer)).not.toContain(first.json().data.client_secret);
    const otherBody = await payDue(m, { payment_method: 'offline' }, key);
    expect(otherBody.statusCode, otherBody.body).toBe(422);
    expect(otherBody.json()).toMatchObject({ success: false, error_code: 'IDEMPOTENCY_KEY_MISMATCH' });
    expect(await payments(m.id)).toHaveLength(2);
    // another customer's same key is their own request, not a replay of this one
    const theirs = await payDue(n, { payment_method: 'stripe' }, key);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().data.booking_id).toBe(n.id);
    // paid: the replay still answers the first answer; the webhook settled it once
    await succeed(intentsOf(m.id).at(-1)!.id, 'balance_paid');
    expect((await payDue(m, { payment_method: 'stripe' }, key)).json()).toEqual(first.json());
    expect((await detail(m)).balance).toMatchObject({ paid: 500, due: 0 });
    expect(
      intentsOf(m.id)
        .filter((pi) => pi.status === 'succeeded')
        .map((pi) => pi.amount),
    ).toEqual([40000, 10000]);
    await clean();
  });

  it('the mail is written by the change’s own transaction: rolled back with it', async () => {
    const m = await paidBooking('stripe');
    await expect(
      t.platform.transaction(async (tx) => {
        const locked = await lockBooking(tx, m.id, new LapsedHolds(t.platform));
        const r = await repriceBooking(t.platform, tx, locked, { total: '500.00' });
        expect(r.money.due.toFixed(2)).toBe('100.00');
        const inTx = await rows<{ n: number }>(
          tx,
          sql`SELECT count(*)::int AS n FROM rova_mail_outbox WHERE to_address = ${m.email} AND template = 'amount_due'`,
        );
        expect(inTx[0]!.n).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await mails(m.email)).toEqual([]);
    await clean();
  });
});

describe('the rest after a deposit may be paid before pick-up', () => {
  /** A customer's 4-day booking at 100.00 a day with a 20 % deposit (total 400.00, deposit 80.00). */
  async function depositBooking(provider: 'offline' | 'stripe'): Promise<Made> {
    const b = await newBooking(provider, 'deposit', { deposit_percent: '20' });
    expect(b.answer).toMatchObject({ amount_due: 80, booking: { total: 400, deposit: 80 } });
    if (provider === 'stripe') await succeed((await payments(b.id))[0]!.external_id!, 'confirmed');
    else {
      const r = await t.inject({
        method: 'POST',
        url: `${V2}/bookings/${b.id}/payments`,
        headers: { ...admin, 'idempotency-key': `desk-deposit-${b.id}` },
        payload: { kind: 'deposit', method: 'cash' },
      });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().data).toMatchObject({ outcome: 'confirmed', paid: '80.00', due: '320.00' });
    }
    return b;
  }

  it('card deposit: the booking shows the rest due; pay-due asks it by card (the same intent on a repeat); paid → paid in full, verify clean', async () => {
    const m = await depositBooking('stripe');
    expect(await detail(m)).toMatchObject({
      payment_status: 'deposit_paid',
      total: 400,
      balance: { paid: 80, due: 320, currency: 'USD', provider: null, instructions: null },
    });
    // the deposit's mail says what is still due, as the desk's does
    const received = () => outboxMails(t.platform, sql`m.to_address = ${m.email} AND m.template = 'payment_received'`);
    const [depositMail] = await received();
    expect(depositMail!.text_body).toContain('Amount paid: 80.00 USD');
    expect(depositMail!.text_body).toContain('Still due: 320.00 USD');
    // and so does its confirmation, with how to pay the rest (the customer has an account)
    const [confirmation] = await outboxMails(
      t.platform,
      sql`m.to_address = ${m.email} AND m.template = 'booking_confirmed'`,
    );
    expect(confirmation!.text_body).toContain('Still due: 320.00 USD');
    expect(confirmation!.text_body).toContain(
      'How to pay: At pick-up, or before it by card from this booking in your account.',
    );
    expect(depositMail!.text_body).toContain(
      'How to pay: At pick-up, or before it by card from this booking in your account.',
    );
    const r = await payDue(m);
    expect(r.statusCode, r.body).toBe(200);
    const rest = (await payments(m.id))[1]!;
    expect(rest).toMatchObject({ provider: 'stripe', status: 'pending', amount: '320.00' });
    const pi = fake.intents.get(rest.external_id!)!;
    expect(r.json().data).toEqual({
      booking_id: m.id,
      payment_id: rest.id,
      provider: 'stripe',
      amount: 320,
      currency: 'USD',
      client_secret: pi.client_secret,
    });
    expect(pi).toMatchObject({ amount: 32000, status: 'requires_payment_method' });
    expect((await detail(m)).balance).toMatchObject({ due: 320, provider: 'stripe' });
    expect((await payDue(m)).json().data.client_secret).toBe(pi.client_secret);
    await clean();
    await succeed(pi.id, 'balance_paid');
    expect(await detail(m)).toMatchObject({ payment_status: 'paid', balance: { paid: 400, due: 0, provider: null } });
    const restMail = (await received())[1]!.text_body;
    expect(restMail).toContain('Amount paid: 320.00 USD');
    expect(restMail).not.toContain('Still due');
    expect(restMail).not.toContain('How to pay');
    expect((await payDue(m)).statusCode).toBe(409);
    // the desk has nothing left to take at pick-up
    const desk = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${m.id}/payments`,
      headers: { ...admin, 'idempotency-key': `desk-rest-${m.id}` },
      payload: { kind: 'full', method: 'cash' },
    });
    expect(desk.statusCode, desk.body).toBe(409);
    await clean();
  });

  it('deposit taken at the desk: pay-due answers the offline instructions, by card it supersedes them; paid → paid', async () => {
    const m = await depositBooking('offline');
    expect(await detail(m)).toMatchObject({
      payment_status: 'deposit_paid',
      balance: { paid: 80, due: 320, provider: null, instructions: null },
    });
    const off = await payDue(m);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({
      provider: 'offline',
      amount: 320,
      instructions: `Pay at the desk. Reference: ${m.reference}. Amount due: 320.00 USD.`,
    });
    const card = await payDue(m, { payment_method: 'stripe' });
    expect(card.statusCode, card.body).toBe(200);
    const pays = await payments(m.id);
    expect(pays.map((x) => [x.provider, x.status, x.amount])).toEqual([
      ['offline', 'failed', '80.00'],
      ['offline', 'succeeded', '80.00'],
      ['offline', 'cancelled', '320.00'],
      ['stripe', 'pending', '320.00'],
    ]);
    await succeed(pays.at(-1)!.external_id!, 'balance_paid');
    expect(await detail(m)).toMatchObject({ payment_status: 'paid', balance: { paid: 400, due: 0 } });
    await clean();
  });

  it('a longer booking after the rest was asked: the old intent is cancelled at Stripe, the new rest asked afresh', async () => {
    const m = await depositBooking('stripe');
    const first = await payDue(m);
    expect(first.json().data).toMatchObject({ amount: 320 });
    const old = intentsOf(m.id).at(-1)!;
    expect((await put(m.id, { return_date: date(m.first + 5) })).statusCode).toBe(200);
    // 5 days: 500.00; still a deposit booking, the rest is what it costs now less the deposit paid
    expect(await detail(m)).toMatchObject({
      payment_status: 'deposit_paid',
      total: 500,
      balance: { paid: 80, due: 420, provider: null },
    });
    await expect.poll(() => fake.intents.get(old.id)!.status).toBe('canceled');
    const again = await payDue(m);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ amount: 420 });
    const pi = intentsOf(m.id).at(-1)!;
    expect(pi.id).not.toBe(old.id);
    await succeed(pi.id, 'balance_paid');
    expect(await detail(m)).toMatchObject({ payment_status: 'paid', balance: { paid: 500, due: 0 } });
    await clean();
  });
});

describe('a reservation waiting for its offline payment may be paid by card before', () => {
  /** A customer's 4-day booking at 100.00 a day (20 % deposit on the deposit plan) paid by `method`, not paid yet. */
  const reservation = (method: 'pay_at_pickup' | 'bank_transfer' | 'stripe', plan: 'full' | 'deposit' = 'full') =>
    newBooking(method, plan, { deposit_percent: '20' });

  it('pay at pick-up: the booking shows what it asks and how; pay-due by card confirms it, paid in full', async () => {
    const m = await reservation('pay_at_pickup');
    const how = `Pay at the desk. Reference: ${m.reference}. Amount due: 400.00 USD.`;
    expect(await detail(m)).toMatchObject({
      status: 'pending_payment',
      payment_deadline: null, // held until pick-up
      payment_status: 'unpaid',
      balance: { paid: 0, due: 400, currency: 'USD', provider: 'offline', instructions: how },
    });
    expect((await payDue(m)).json().data).toMatchObject({ provider: 'offline', amount: 400, instructions: how });
    const card = await payDue(m, { payment_method: 'stripe' });
    expect(card.statusCode, card.body).toBe(200);
    const pays = await payments(m.id);
    expect(pays.map((x) => [x.provider, x.status, x.amount])).toEqual([
      ['offline', 'cancelled', '400.00'],
      ['stripe', 'pending', '400.00'],
    ]);
    expect(card.json().data).toMatchObject({ provider: 'stripe', payment_id: pays[1]!.id, amount: 400 });
    expect(fake.intents.get(pays[1]!.external_id!)).toMatchObject({ amount: 40000 });
    await clean();
    await succeed(pays[1]!.external_id!, 'confirmed');
    expect(await detail(m)).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      balance: { paid: 400, due: 0, provider: null, instructions: null },
    });
    expect((await payDue(m)).statusCode).toBe(409);
    await clean();
  });

  it('bank transfer on the deposit plan: the deposit by card confirms it (deposit_paid), then the rest by card', async () => {
    const m = await reservation('bank_transfer', 'deposit');
    expect(await detail(m)).toMatchObject({ payment_status: 'unpaid', balance: { paid: 0, due: 80 } });
    const deposit = await payDue(m, { payment_method: 'stripe' });
    expect(deposit.json().data).toMatchObject({ provider: 'stripe', amount: 80 });
    await succeed(intentsOf(m.id).at(-1)!.id, 'confirmed');
    expect(await detail(m)).toMatchObject({
      status: 'confirmed',
      payment_status: 'deposit_paid',
      balance: { paid: 80, due: 320, provider: null },
    });
    const rest = await payDue(m);
    expect(rest.json().data).toMatchObject({ provider: 'stripe', amount: 320 });
    await succeed(intentsOf(m.id).at(-1)!.id, 'balance_paid');
    expect(await detail(m)).toMatchObject({ payment_status: 'paid', balance: { paid: 400, due: 0 } });
    await clean();
  });

  it('bank transfer, a card payment started and left, then the transfer arrives: mark-paid does not settle the card intent; the desk records the transfer, the intent is cancelled at Stripe', async () => {
    const m = await reservation('bank_transfer');
    const card = await payDue(m, { payment_method: 'stripe' });
    expect(card.statusCode, card.body).toBe(200);
    const [, intent] = await payments(m.id);
    expect(intent).toMatchObject({ provider: 'stripe', status: 'pending' });
    // "the offline payment was received": there is none pending, and a card intent is Stripe's to settle
    const marked = await t.inject({ method: 'POST', url: `${V2}/bookings/${m.id}/mark-paid`, headers: admin });
    expect(marked.statusCode, marked.body).toBe(409);
    expect(marked.json()).toMatchObject({
      success: false,
      error_code: 'STATE_CONFLICT',
      message:
        `Payment ${intent!.id} is a card payment, which Stripe settles. To record money the desk received (a bank ` +
        'transfer, cash), use POST /bookings/{id}/payments: the card payment is then withdrawn.',
      details: { reason: 'payment_by_card', payment_id: intent!.id },
    });
    const named = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${m.id}/mark-paid`,
      headers: admin,
      payload: { payment_id: intent!.id },
    });
    expect(named.statusCode, named.body).toBe(409);
    expect((await payments(m.id)).map((x) => [x.provider, x.status])).toEqual([
      ['offline', 'cancelled'],
      ['stripe', 'pending'],
    ]);
    // the desk records the transfer: confirmed and paid, the card intent cancelled at Stripe
    const recorded = await t.inject({
      method: 'POST',
      url: `${V2}/bookings/${m.id}/payments`,
      headers: { ...admin, 'idempotency-key': `transfer-${m.id}` },
      payload: { kind: 'full', method: 'bank_transfer', reference: 'TRX-1' },
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json().data).toMatchObject({ outcome: 'confirmed', due: '0.00' });
    expect(await detail(m)).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    await expect.poll(() => fake.intents.get(intent!.external_id!)?.status).toBe('canceled');
    expect((await payments(m.id)).map((x) => [x.provider, x.status])).toEqual([
      ['offline', 'cancelled'],
      ['stripe', 'cancelled'],
      ['offline', 'succeeded'],
    ]);
    await clean();
  });

  it('bank transfer, a card payment started and left, two days pass: the deadline cancels it and says why; the card paid later confirms it while the slot is free, and is refunded once another customer took it', async () => {
    for (const taken of [false, true]) {
      const m = await reservation('bank_transfer');
      const card = await payDue(m, { payment_method: 'stripe' });
      expect(card.statusCode, card.body).toBe(200);
      const [, intent] = await payments(m.id);
      // the card attempt holds nothing longer than the transfer's deadline: a day later it still waits, then lapses
      await moveClock(t.platform.db, DAY, [m.id]);
      expect(await runHoldExpiry(t.platform)).toBe(0);
      expect(await detail(m)).toMatchObject({ status: 'pending_payment', payment_status: 'unpaid' });
      await moveClock(t.platform.db, DAY + MINUTE, [m.id]);
      expect(await runHoldExpiry(t.platform)).toBe(1);
      expect(await detail(m)).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
      const [lapsed] = await outboxMails(
        t.platform,
        sql`m.to_address = ${m.email} AND m.template = 'booking_cancelled'`,
      );
      expect(lapsed!.text_body).toContain(`Reason: ${EXPIRED_REASON}`);
      expect(lapsed!.text_body).not.toContain('Still due');
      await clean();
      const vehicleId = (m.answer.booking as { vehicle_id: number }).vehicle_id;
      if (taken) {
        const other = await t.userWithKey('customer');
        const r = await t.inject({
          method: 'POST',
          url: `${V2}/booking/create`,
          headers: { 'x-rova-api-key': other.key },
          payload: {
            vehicle_id: vehicleId,
            pickup_date: date(m.first),
            return_date: date(m.first + 4),
            payment_method: 'pay_at_pickup',
            payment_plan: 'full',
          },
        });
        expect(r.statusCode, r.body).toBe(201);
      }
      // the customer finishes the card payment they left: Stripe settles it
      await succeed(intent!.external_id!, taken ? 'refunded_slot_taken' : 'confirmed');
      if (taken) {
        expect(await detail(m)).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
        expect(fake.refunds.filter((x) => x.payment_intent === intent!.external_id)).toMatchObject([{ amount: 40000 }]);
      } else expect(await detail(m)).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
      await clean();
    }
  });

  it('a card booking waiting for its card payment is not one: nothing due here (409), its own intent stays', async () => {
    const m = await reservation('stripe');
    expect(m.status).toBe('pending_payment');
    expect((await detail(m)).balance).toMatchObject({ paid: 0, due: 0 });
    const r = await payDue(m, { payment_method: 'stripe' });
    expect(r.statusCode, r.body).toBe(409);
    expect(r.json().details).toMatchObject({ reason: 'nothing_due' });
    expect((await payments(m.id)).map((x) => [x.provider, x.status])).toEqual([['stripe', 'pending']]);
  });
});
