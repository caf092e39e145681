// A guest (no account) pays the rest of a booking whose price went up, by card, through the booking mail's manage
// link: the account's pay-due path (one lock, one pending payment, one intent), authorised by the link's token,
// against the local Stripe-speaking server.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { signManageToken } from '../../../src/modules/rental/guests/manage-link.js';
import { rows } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';
import { stripeApp, type StripeApp } from './stripe-app.js';
import { stripeEvent } from './stripe-server.js';

const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';
let t: TestApp;
let fake: StripeApp['fake'];
let admin: Record<string, string>;
let stripe: StripeApp;
beforeAll(async () => {
  stripe = await stripeApp({ PAYMENT_OFFLINE_INSTRUCTIONS: 'Pay at the desk.' });
  ({ t, fake, admin } = stripe);
}, 240_000);
afterAll(async () => stripe?.close());

let day = 0;
const date = (n: number) => new Date(Date.UTC(2039, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.inject({ method: 'POST', url: V2 + url, payload: payload as object, headers });
const clean = async () => expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);
const payments = (id: number) =>
  rows<{ id: number; provider: string; status: string; amount: string; external_id: string | null }>(
    t.platform.db,
    sql`SELECT id::int AS id, provider, status, amount::text AS amount, external_id FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  );
const intentsOf = (id: number) => [...fake.intents.values()].filter((pi) => pi.metadata.booking_id === String(id));
async function succeed(intent: string, outcome: string) {
  const r = await stripe.signed(stripeEvent('payment_intent.succeeded', fake.succeed(intent)));
  expect(r.json().data.outcome, r.body).toBe(outcome);
}

interface Guest {
  id: number;
  reference: string;
  first: number;
  /** The booking mail's manage link token, as the header the manage routes take. */
  link: Record<string, string>;
}

const email = 'pia-payer@example.test';
const outbox = async () => {
  const r = await t.inject({ method: 'GET', url: `${R}/outbox?to=${encodeURIComponent(email)}`, headers: admin });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { template: string; subject: string; text: string }[];
};
let pass: Promise<string> | undefined;
/** The guest's pass (one mailed code for the file: codes are limited per address and client). */
async function guestPass(): Promise<string> {
  const code = await post('/guest/verification', { email, name: 'Pia Payer' });
  expect(code.statusCode, code.body).toBe(200);
  const mail = (await outbox()).find((m) => m.template === 'guest_code')!;
  const digits = /Your booking code: (\d{6})/.exec(mail.subject)![1]!;
  const ok = await post('/guest/verification/confirm', {
    verification_id: code.json().data.verification_id,
    code: digits,
  });
  expect(ok.statusCode, ok.body).toBe(200);
  return ok.json().data.guest_pass as string;
}

/**
 * A guest's 4-day booking (100.00 a day), booked with the mailed code, paid by `method` on `plan` (a deposit of 20 %),
 * nothing paid yet; with the booking mail's manage link.
 */
async function guestReservation(
  method: 'offline' | 'stripe' | 'pay_at_pickup',
  plan: 'full' | 'deposit' = 'full',
): Promise<Guest> {
  day += 10;
  const created = await post(
    '/guest/booking/create',
    {
      vehicle_id: await vehicle(t, plan === 'deposit' ? { deposit_percent: '20' } : {}),
      pickup_date: date(day),
      return_date: date(day + 4),
      payment_method: method,
      payment_plan: plan,
    },
    { 'x-rova-guest-pass': await (pass ??= guestPass()) },
  );
  expect(created.statusCode, created.body).toBe(201);
  const b = created.json().data.booking as { id: number; reference: string };
  const mail = (await outbox()).find(
    (m) => m.template === 'booking_created' && m.text.includes(`rova_manage=${b.reference}.`),
  )!;
  const token = decodeURIComponent(/rova_manage=([^\s"&<)]+)/.exec(mail.text)![1]!);
  return { id: b.id, reference: b.reference, first: day, link: { 'x-rova-manage-token': token } };
}

/**
 * A guest's 4-day booking (100.00 a day), paid in full by card or at the desk; with plan `deposit` (20 %), its
 * deposit paid by card.
 */
async function guestBooking(
  provider: 'offline' | 'stripe' = 'stripe',
  plan: 'full' | 'deposit' = 'full',
): Promise<Guest> {
  const g = await guestReservation(provider, plan);
  if (provider === 'stripe') await succeed((await payments(g.id))[0]!.external_id!, 'confirmed');
  else
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/bookings/${g.id}/mark-paid`, headers: admin })).statusCode,
    ).toBe(200);
  return g;
}
/** The operator lengthens the booking by `days`: 100.00 a day is due. */
async function lengthen(g: Guest, days: number) {
  const r = await t.inject({
    method: 'PUT',
    url: `${V1}/bookings/${g.id}`,
    headers: admin,
    payload: { return_date: date(g.first + 4 + days) },
  });
  expect(r.statusCode, r.body).toBe(200);
  expect(r.json().data.payment_status).toBe('partially_paid');
}
const view = async (g: Guest) => {
  const r = await t.inject({ method: 'GET', url: `${V2}/guest/manage/booking`, headers: g.link });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as { status: string; payment_status: string; total: number; balance: Record<string, unknown> };
};
const payDue = (g: Guest, headers: Record<string, string> = {}, body: Record<string, unknown> = {}) =>
  post('/guest/manage/pay-due', body, { ...g.link, ...headers });

describe('a guest pays the rest through the manage link', () => {
  it('card: the link shows paid and due; pay-due answers the intent of the difference (the same on a repeat); the webhook settles it: paid; then 409 nothing_due; audited as the guest', async () => {
    const g = await guestBooking();
    await lengthen(g, 2);
    // the mail asking for it points a guest (no account) to its manage link, which it carries
    const asked = (await outbox()).find((m) => m.template === 'amount_due' && m.text.includes(g.reference))!;
    expect(asked.text).toContain('Amount due: 200.00 USD');
    expect(asked.text).toContain(
      'How to pay: Pay the rest by card with the link “Manage your booking without signing in” below.',
    );
    expect(asked.text).toContain(`Manage your booking without signing in: `);
    expect(await view(g)).toMatchObject({
      payment_status: 'partially_paid',
      total: 600,
      balance: { paid: 400, due: 200, currency: 'USD', provider: 'stripe', instructions: null },
    });
    const r = await payDue(g, {}, { payment_method: 'stripe' });
    expect(r.statusCode, r.body).toBe(200);
    const due = (await payments(g.id))[1]!;
    const pi = fake.intents.get(due.external_id!)!;
    expect(pi).toMatchObject({ amount: 20000, status: 'requires_payment_method' });
    expect(r.json()).toEqual({
      success: true,
      message: 'Confirm the payment with the client secret.',
      data: {
        booking_id: g.id,
        payment_id: due.id,
        provider: 'stripe',
        amount: 200,
        currency: 'USD',
        client_secret: pi.client_secret,
      },
    });
    // asked again (no key): the same payment and intent, not a second
    expect((await payDue(g)).json().data).toEqual(r.json().data);
    expect(intentsOf(g.id)).toHaveLength(2);
    await succeed(pi.id, 'balance_paid');
    expect(await view(g)).toMatchObject({ payment_status: 'paid', balance: { paid: 600, due: 0 } });
    const nothing = await payDue(g);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json()).toMatchObject({
      success: false,
      error_code: 'STATE_CONFLICT',
      details: { reason: 'nothing_due' },
    });
    const audit = await rows<{ details: Record<string, unknown> }>(
      t.platform.db,
      sql`SELECT details FROM rova_audit_log WHERE target = ${`booking:${g.id}`} AND route = ${`${V2}/guest/manage/pay-due`} ORDER BY id`,
    );
    expect(audit).toHaveLength(3);
    expect(audit[0]!.details).toMatchObject({ actor: 'guest', via: 'manage_link' });
    await clean();
  });

  it('an offline booking: the link gives the instructions; paying by card instead supersedes the offline request', async () => {
    const g = await guestBooking('offline');
    await lengthen(g, 1);
    const how = `Pay at the desk. Reference: ${g.reference}. Amount due: 100.00 USD.`;
    expect((await view(g)).balance).toEqual({
      paid: 400,
      due: 100,
      currency: 'USD',
      provider: 'offline',
      instructions: how,
    });
    const off = await payDue(g);
    expect(off.json()).toMatchObject({
      message: 'Pay as instructed.',
      data: { provider: 'offline', amount: 100, instructions: how },
    });
    const card = await payDue(g, {}, { payment_method: 'stripe' });
    expect(card.statusCode, card.body).toBe(200);
    expect((await payments(g.id)).map((x) => [x.provider, x.status, x.amount])).toEqual([
      ['offline', 'succeeded', '400.00'],
      ['offline', 'cancelled', '100.00'],
      ['stripe', 'pending', '100.00'],
    ]);
    await succeed((await payments(g.id))[2]!.external_id!, 'balance_paid');
    expect((await view(g)).payment_status).toBe('paid');
    await clean();
  });

  it('nothing due: 409 nothing_due, nothing asked; a method the store does not take → 400; an unknown field → 400', async () => {
    const g = await guestBooking();
    const calls = fake.calls.length;
    const r = await payDue(g);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({
      success: false,
      error_code: 'STATE_CONFLICT',
      message: 'Nothing is due on this booking.',
      details: { reason: 'nothing_due' },
    });
    expect(await payments(g.id)).toHaveLength(1);
    expect(fake.calls.length).toBe(calls);
    await lengthen(g, 1);
    const paypal = await payDue(g, {}, { payment_method: 'paypal' });
    expect(paypal.statusCode).toBe(400);
    expect(paypal.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    const extra = await payDue(g, {}, { payment_method: 'stripe', amount: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    expect(await payments(g.id)).toHaveLength(2); // the lengthening's request only
  });

  it('forged, re-pointed, expired or revoked link → 401 AUTH_REQUIRED, no link → 400, as the other manage routes; nothing asked', async () => {
    const g = await guestBooking();
    const other = await guestBooking();
    await lengthen(g, 1);
    const before = await payments(g.id);
    const token = g.link['x-rova-manage-token']!;
    const [, issued, expires, sig] = token.split('.');
    const refused = async (headers: Record<string, string>) => {
      const r = await post('/guest/manage/pay-due', {}, headers);
      expect(r.statusCode, r.body).toBe(401);
      expect(r.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
    };
    // no header at all: the schema's 400, as for the cancel
    const none = await post('/guest/manage/pay-due', {}, {});
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    expect((await post('/guest/manage/cancel', {}, {})).statusCode).toBe(400);
    await refused({ 'x-rova-manage-token': 'x.y.z.w' });
    await refused({ 'x-rova-manage-token': [other.reference, issued, expires, sig].join('.') });
    await refused({ 'x-rova-manage-token': [g.reference, issued, String(Number(expires) + 1), sig].join('.') });
    const expired = signManageToken(t.platform.config.secret, g.reference, new Date(Date.now() - 31 * 86_400_000));
    await refused({ 'x-rova-manage-token': expired });
    expect((await post('/guest/manage/revoke', {}, g.link)).statusCode).toBe(200);
    await refused(g.link);
    expect(await payments(g.id)).toEqual(before);
  });

  it('Idempotency-Key: a replay answers the first answer (Idempotent-Replayed), one payment and one intent; another body → 422; the key is the booking’s', async () => {
    const g = await guestBooking();
    const h = await guestBooking();
    await lengthen(g, 1);
    await lengthen(h, 1);
    const key = { 'idempotency-key': 'guest-pay-1' };
    const first = await payDue(g, key, { payment_method: 'stripe' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const calls = fake.calls.length;
    const again = await payDue(g, key, { payment_method: 'stripe' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // the replay did not reach the provider: no second intent, no second charge
    expect(fake.calls.length).toBe(calls);
    expect((await payments(g.id)).filter((x) => x.status === 'pending')).toHaveLength(1);
    expect(intentsOf(g.id)).toHaveLength(2);
    // the client secret is kept sealed in the key's row
    const kept = await rows<{ answer: unknown }>(
      t.platform.db,
      sql`SELECT response_body AS answer FROM rova_idempotent_requests WHERE key = 'guest-pay-1'`,
    );
    expect(kept).toHaveLength(1);
    expect(JSON.stringify(kept[0]!.answer)).not.toContain(first.json().data.client_secret);
    const otherBody = await payDue(g, key, { payment_method: 'offline' });
    expect(otherBody.statusCode).toBe(422);
    // the same key on another booking's link is that booking's own request, not a replay
    const theirs = await payDue(h, key, { payment_method: 'stripe' });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().data.booking_id).toBe(h.id);
    // paid: the replay still answers the first answer; the webhook settled it once
    await succeed(intentsOf(g.id).at(-1)!.id, 'balance_paid');
    expect((await payDue(g, key, { payment_method: 'stripe' })).json()).toEqual(first.json());
    expect((await view(g)).balance).toMatchObject({ paid: 500, due: 0 });
    expect(
      intentsOf(g.id)
        .filter((pi) => pi.status === 'succeeded')
        .map((pi) => pi.amount),
    ).toEqual([40000, 10000]);
    await clean();
  });

  it('pay-due racing a cancellation through the same link, 20 rounds: cancelled free, nothing kept, no request left asking', async () => {
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const g = await guestBooking();
      await lengthen(g, 1);
      const [paid, cancelled] = await Promise.all([
        payDue(g, { 'idempotency-key': `race-${i}` }, { payment_method: 'stripe' }),
        post('/guest/manage/cancel', {}, g.link),
      ]);
      const key = `pay-due ${paid.statusCode} / cancel ${cancelled.statusCode}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      if (paid.statusCode === 409) expect(paid.json().details, key).toMatchObject({ reason: 'nothing_due' });
      else expect(paid.statusCode, paid.body).toBe(200);
      const v = await view(g);
      expect(v.status, key).toBe('cancelled');
      expect(v.balance, key).toMatchObject({ due: 0 });
      const pays = await payments(g.id);
      expect(
        pays.filter((x) => x.status === 'pending'),
        key,
      ).toEqual([]);
      // a free cancel: every succeeded payment is refunded (or owed its refund), none kept
      const kept = await rows<{ id: number }>(
        t.platform.db,
        sql`SELECT p.id FROM rental_payments p WHERE p.booking_id = ${g.id} AND p.status = 'succeeded'
          AND p.refunded_amount < p.amount AND NOT EXISTS (SELECT 1 FROM rental_refunds r WHERE r.payment_id = p.id)`,
      );
      expect(cancelled.json().data.fee, key).toBe(0);
      expect(kept, key).toEqual([]);
      // an intent the guest still holds cannot take money any more: cancelled at Stripe
      for (const pi of intentsOf(g.id).slice(1)) expect(pi.status, key).toBe('canceled');
    }
    expect([...outcomes.values()].reduce((x, y) => x + y, 0)).toBe(20);
    await clean();
  }, 120_000);

  it('a deposit paid by card: the link shows the rest due; pay-due asks it by card; the webhook settles it: paid', async () => {
    const g = await guestBooking('stripe', 'deposit');
    expect(await view(g)).toMatchObject({
      payment_status: 'deposit_paid',
      total: 400,
      balance: { paid: 80, due: 320, provider: null },
    });
    // its confirmation says what is left and points a guest to the manage link it carries
    const confirmation = (await outbox()).find(
      (m) => m.template === 'booking_confirmed' && m.subject.includes(g.reference),
    )!;
    expect(confirmation.text).toContain('Still due: 320.00 USD');
    expect(confirmation.text).toContain(
      'How to pay: At pick-up, or before it by card with the link “Manage your booking without signing in” below.',
    );
    expect(confirmation.text).toContain('rova_manage=');
    const r = await payDue(g);
    expect(r.statusCode, r.body).toBe(200);
    const pi = intentsOf(g.id).at(-1)!;
    expect(r.json().data).toMatchObject({
      booking_id: g.id,
      provider: 'stripe',
      amount: 320,
      client_secret: pi.client_secret,
    });
    expect(pi.amount).toBe(32000);
    await succeed(pi.id, 'balance_paid');
    expect(await view(g)).toMatchObject({ payment_status: 'paid', balance: { paid: 400, due: 0 } });
    expect((await payDue(g)).statusCode).toBe(409);
    await clean();
  });

  it('pay at pick-up: the link shows what the reservation asks; paid by card through it, the webhook confirms it', async () => {
    const g = await guestReservation('pay_at_pickup');
    expect(await view(g)).toMatchObject({
      status: 'pending_payment',
      payment_status: 'unpaid',
      balance: { paid: 0, due: 400, provider: 'offline' },
    });
    const r = await payDue(g, {}, { payment_method: 'stripe' });
    expect(r.statusCode, r.body).toBe(200);
    const pi = intentsOf(g.id).at(-1)!;
    expect(r.json().data).toMatchObject({ provider: 'stripe', amount: 400, client_secret: pi.client_secret });
    await succeed(pi.id, 'confirmed');
    expect(await view(g)).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      balance: { paid: 400, due: 0 },
    });
    await clean();
  });
});
