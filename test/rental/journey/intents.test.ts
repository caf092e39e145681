// PaymentIntents of amounts due survive a provider outage (retried under one idempotency key, never
// two intents), and intents made stale (superseded amount due, cancelled booking, nothing due any more) are
// cancelled at the provider — against the local Stripe-speaking server, with its outages.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { runPaymentRetries } from '../../../src/modules/rental/payments/retry.js';
import { rows } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';
import { stripeApp, type StripeApp } from './stripe-app.js';
import { stripeEvent } from './stripe-server.js';

const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
const CREATE = /^\/v1\/payment_intents$/;
const CANCEL = /^\/v1\/payment_intents\/[^/]+\/cancel$/;
let t: TestApp;
let fake: StripeApp['fake'];
let admin: Record<string, string>;
let stripe: StripeApp;
beforeAll(async () => {
  stripe = await stripeApp({
    // a call to the provider that has not answered in 400 ms counts as failed (and is retried)
    STRIPE_API_TIMEOUT_MS: '400',
  });
  ({ t, fake, admin } = stripe);
}, 240_000);
afterAll(async () => stripe?.close());

let day = 0;
const date = (n: number) => new Date(Date.UTC(2037, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const signed = (payload: string) => stripe.signed(payload);
const intentsOfPayment = (paymentId: number) =>
  [...fake.intents.values()].filter((x) => x.metadata.payment_id === String(paymentId));
const put = (id: number, body: Record<string, unknown>) =>
  t.inject({ method: 'PUT', url: `${V1}/bookings/${id}`, headers: admin, payload: body });
const clean = async () => expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);

interface Pay {
  id: number;
  status: string;
  amount: string;
  external_id: string | null;
  provider_action: string | null;
  provider_attempts: number;
  provider_error: string | null;
}
const payments = (id: number) =>
  rows<Pay>(
    t.platform.db,
    sql`SELECT id::int AS id, status, amount::text AS amount, external_id, provider_action, provider_attempts, provider_error
      FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  );
const bookingOf = async (id: number) =>
  (
    await rows<{ status: string; payment_status: string; total: string }>(
      t.platform.db,
      sql`SELECT status, payment_status, total::text AS total FROM rental_bookings WHERE id = ${id}`,
    )
  )[0]!;

/** A customer's 4-day booking (100.00 a day) paid by card through the webhook (unless `paid` is false). */
async function cardBooking(paid = true): Promise<{ id: number; first: number; customer: Record<string, string> }> {
  day += 10;
  const customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
  const created = await t.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: customer,
    payload: {
      vehicle_id: await vehicle(t),
      pickup_date: date(day),
      return_date: date(day + 4),
      payment_method: 'stripe',
      payment_plan: 'full',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.booking.id as number;
  if (paid) await payWebhook((await payments(id))[0]!.external_id!, 'confirmed');
  return { id, first: day, customer };
}

/** The customer pays the intent (at the fake) and Stripe's webhook arrives: the outcome Rova answers. */
async function payWebhook(intentId: string, outcome: string): Promise<void> {
  const r = await signed(stripeEvent('payment_intent.succeeded', fake.succeed(intentId)));
  expect(r.statusCode, r.body).toBe(200);
  expect(r.json().data.outcome).toBe(outcome);
}

describe('an amount due whose PaymentIntent cannot be created at once', () => {
  it('provider down (503 on every try): the change commits, the payment waits unstarted; the job starts it once the provider is back — one intent, paid, verify clean', async () => {
    const { id, first } = await cardBooking();
    fake.fault('unavailable', 3, { path: CREATE }); // the SDK's call and its two retries
    const r = await put(id, { return_date: date(first + 5) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ total: 500, payment_status: 'partially_paid' });
    const due = (await payments(id))[1]!;
    expect(due).toMatchObject({
      status: 'pending',
      amount: '100.00',
      external_id: null,
      provider_action: 'start',
      provider_attempts: 1,
      provider_error: expect.stringContaining('payment provider'),
    });
    expect(intentsOfPayment(due.id)).toEqual([]);
    await clean();
    // not due yet (backoff): the job leaves it; once due it starts it
    expect(await runPaymentRetries(t.platform)).toEqual({ started: 0, cancelled: 0 });
    await t.platform.db.execute(sql`UPDATE rental_payments SET provider_next_at = now() WHERE id = ${due.id}`);
    expect(await runPaymentRetries(t.platform)).toEqual({ started: 1, cancelled: 0 });
    const [pi] = intentsOfPayment(due.id);
    expect(intentsOfPayment(due.id)).toHaveLength(1);
    expect(pi).toMatchObject({ amount: 10000, status: 'requires_payment_method' });
    expect((await payments(id))[1]).toMatchObject({
      external_id: pi!.id,
      provider_action: null,
      provider_error: null,
    });
    const keys = fake.calls.filter(
      (c) => c.path === '/v1/payment_intents' && c.params['metadata[payment_id]'] === String(due.id),
    );
    expect(new Set(keys.map((c) => c.idempotencyKey))).toEqual(new Set([`rova-payment-${due.id}`]));
    expect(keys.length).toBe(4); // three refused, one made
    await payWebhook(pi!.id, 'balance_paid');
    expect(await bookingOf(id)).toMatchObject({ status: 'confirmed', payment_status: 'paid', total: '500.00' });
    await clean();
  });

  it('answers lost to timeouts after Stripe made the intent: every retry (the SDK’s, then the job’s) gets the same intent back under the same key — never two', async () => {
    const { id, first } = await cardBooking();
    fake.fault('timeout', 3, { path: CREATE, delayMs: 1500 });
    const r = await put(id, { return_date: date(first + 6) });
    expect(r.statusCode, r.body).toBe(200);
    const due = (await payments(id))[1]!;
    expect(due).toMatchObject({ status: 'pending', amount: '200.00', external_id: null, provider_action: 'start' });
    // Stripe did make it, once: the two retries were answered (too late) from the key
    expect(intentsOfPayment(due.id)).toHaveLength(1);
    await t.platform.db.execute(sql`UPDATE rental_payments SET provider_next_at = now() WHERE id = ${due.id}`);
    expect(await runPaymentRetries(t.platform)).toEqual({ started: 1, cancelled: 0 });
    const made = intentsOfPayment(due.id);
    expect(made).toHaveLength(1);
    expect((await payments(id))[1]).toMatchObject({ external_id: made[0]!.id, provider_action: null });
    await payWebhook(made[0]!.id, 'balance_paid');
    expect(await bookingOf(id)).toMatchObject({ payment_status: 'paid', total: '600.00' });
    await clean();
  });

  it('one timeout, one dropped connection: the SDK’s own retries (same key) start it within the request — one intent', async () => {
    const { id, first } = await cardBooking();
    fake.fault('timeout', 1, { path: CREATE, delayMs: 1500 });
    fake.fault('reset', 1, { path: CREATE });
    expect((await put(id, { return_date: date(first + 5) })).statusCode).toBe(200);
    const due = (await payments(id))[1]!;
    const made = intentsOfPayment(due.id);
    expect(made).toHaveLength(1);
    expect(due).toMatchObject({ external_id: made[0]!.id, provider_action: null, provider_attempts: 1 });
    await clean();
  });
});

describe('stale intents are cancelled at the provider', () => {
  it('lengthened twice: the intent of the first amount due is cancelled, the second asks the new difference; paying it settles the booking', async () => {
    const { id, first } = await cardBooking();
    expect((await put(id, { return_date: date(first + 5) })).statusCode).toBe(200);
    const [, a] = await payments(id);
    expect((await put(id, { return_date: date(first + 7) })).statusCode).toBe(200);
    const [, a2, b] = await payments(id);
    expect(a2).toMatchObject({ id: a!.id, status: 'cancelled', provider_action: null });
    expect(fake.intents.get(a!.external_id!)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(b).toMatchObject({ status: 'pending', amount: '300.00', provider_action: null });
    expect(fake.calls.find((c) => c.path === `/v1/payment_intents/${a!.external_id}/cancel`)?.idempotencyKey).toBe(
      `rova-cancel-${a!.id}`,
    );
    await payWebhook(b!.external_id!, 'balance_paid');
    expect(await bookingOf(id)).toMatchObject({ payment_status: 'paid', total: '700.00' });
    await clean();
  });

  it('lengthened, then shortened back: nothing is due any more, the intent is cancelled, payment_status paid', async () => {
    const { id, first } = await cardBooking();
    expect((await put(id, { return_date: date(first + 5) })).statusCode).toBe(200);
    expect((await put(id, { return_date: date(first + 4) })).json().data).toMatchObject({
      total: 400,
      payment_status: 'paid',
    });
    const [, due] = await payments(id);
    expect(due).toMatchObject({ status: 'cancelled', provider_action: null });
    expect(fake.intents.get(due!.external_id!)?.status).toBe('canceled');
    await clean();
  });

  it('an amount due, then the customer cancels the booking: the open intent is cancelled too', async () => {
    const { id, first, customer } = await cardBooking();
    expect((await put(id, { return_date: date(first + 5) })).statusCode).toBe(200);
    const cancel = await t.inject({ method: 'POST', url: `${V2}/my/bookings/${id}/cancel`, headers: customer });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const [paid, due] = await payments(id);
    expect(paid).toMatchObject({ status: 'refunded' });
    expect(due).toMatchObject({ status: 'cancelled', provider_action: null });
    expect(fake.intents.get(due!.external_id!)?.status).toBe('canceled');
    await clean();
  });

  it('an unpaid card booking cancelled by the operator: its intent can no longer be paid', async () => {
    const { id } = await cardBooking(false);
    const r = await t.inject({
      method: 'POST',
      url: `${V1}/bookings/${id}/status`,
      headers: admin,
      payload: { status: 'cancelled' },
    });
    expect(r.statusCode, r.body).toBe(200);
    const [pay] = await payments(id);
    expect(pay).toMatchObject({ status: 'cancelled', provider_action: null });
    expect(fake.intents.get(pay!.external_id!)?.status).toBe('canceled');
    await clean();
  });

  it('the provider is down for the cancel: the change commits, the cancel waits and the job makes it', async () => {
    const { id, first } = await cardBooking();
    expect((await put(id, { return_date: date(first + 5) })).statusCode).toBe(200);
    fake.fault('unavailable', 3, { path: CANCEL });
    expect((await put(id, { return_date: date(first + 4) })).statusCode).toBe(200);
    const [, due] = await payments(id);
    expect(due).toMatchObject({ status: 'cancelled', provider_action: 'cancel', provider_attempts: 1 });
    expect(fake.intents.get(due!.external_id!)?.status).toBe('requires_payment_method');
    await t.platform.db.execute(sql`UPDATE rental_payments SET provider_next_at = now() WHERE id = ${due!.id}`);
    expect(await runPaymentRetries(t.platform)).toEqual({ started: 0, cancelled: 1 });
    expect(fake.intents.get(due!.external_id!)?.status).toBe('canceled');
    expect((await payments(id))[1]).toMatchObject({ provider_action: null, provider_error: null });
    await clean();
  });

  it('a start whose answer was lost, then superseded: the cancel finds the intent by its key and cancels it', async () => {
    const { id, first } = await cardBooking();
    fake.fault('timeout', 3, { path: CREATE, delayMs: 1500 });
    expect((await put(id, { return_date: date(first + 5) })).statusCode).toBe(200);
    const [, lost] = await payments(id);
    expect(lost).toMatchObject({ external_id: null, provider_action: 'start' });
    const [made] = intentsOfPayment(lost!.id);
    expect((await put(id, { return_date: date(first + 4) })).statusCode).toBe(200);
    expect((await payments(id))[1]).toMatchObject({ status: 'cancelled', provider_action: null });
    expect(intentsOfPayment(lost!.id)).toEqual([expect.objectContaining({ id: made!.id, status: 'canceled' })]);
    await clean();
  });

  it('a stale intent paid before its cancel reached Stripe: the money is settled all the same, nothing lost, verify clean', async () => {
    const { id, first } = await cardBooking();
    expect((await put(id, { return_date: date(first + 5) })).statusCode).toBe(200);
    const [, a] = await payments(id);
    fake.succeed(a!.external_id!); // paid at Stripe; its webhook is still on the way
    expect((await put(id, { return_date: date(first + 7) })).statusCode).toBe(200);
    expect((await payments(id))[1]).toMatchObject({ status: 'cancelled', provider_action: null });
    // the webhook arrives: 400 + 100 of 700 paid, so 200 is now due (the 300 intent is superseded in turn)
    const r = await signed(stripeEvent('payment_intent.succeeded', fake.intents.get(a!.external_id!)));
    expect(r.json().data.outcome).toBe('balance_paid');
    const after = await payments(id);
    expect(after.map((x) => [x.status, x.amount])).toEqual([
      ['succeeded', '400.00'],
      ['succeeded', '100.00'],
      ['cancelled', '300.00'],
      ['pending', '200.00'],
    ]);
    expect(fake.intents.get(after[2]!.external_id!)?.status).toBe('canceled');
    expect(await bookingOf(id)).toMatchObject({ payment_status: 'partially_paid', total: '700.00' });
    await clean();
    await payWebhook(after[3]!.external_id!, 'balance_paid');
    expect(await bookingOf(id)).toMatchObject({ payment_status: 'paid' });
    await clean();
  });

  it('a new booking whose first intent’s creation timed out (Stripe made it): 503, the booking cancelled, and that intent cancelled by its key', async () => {
    day += 10;
    const customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    let v = 0;
    fake.fault('timeout', 3, { path: CREATE, delayMs: 1500 });
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: customer,
      payload: {
        vehicle_id: (v = await vehicle(t)),
        pickup_date: date(day),
        return_date: date(day + 2),
        payment_method: 'stripe',
        payment_plan: 'full',
      },
    });
    expect(r.statusCode, r.body).toBe(503);
    const [b] = await rows<{ id: number; status: string }>(
      t.platform.db,
      sql`SELECT id::int AS id, status FROM rental_bookings WHERE vehicle_id = ${v}`,
    );
    expect(b!.status).toBe('cancelled');
    const [pay] = await payments(b!.id);
    expect(pay).toMatchObject({ status: 'cancelled', external_id: null, provider_action: null });
    const made = intentsOfPayment(pay!.id);
    expect(made).toEqual([expect.objectContaining({ status: 'canceled', amount: 20000 })]);
    await clean();
  });

  it('a refused first intent (402, nothing made): the payment failed, nothing to cancel', async () => {
    day += 10;
    const customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
    const calls = fake.calls.length;
    let v = 0;
    fake.failNext(1);
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: customer,
      payload: {
        vehicle_id: (v = await vehicle(t)),
        pickup_date: date(day),
        return_date: date(day + 2),
        payment_method: 'stripe',
        payment_plan: 'full',
      },
    });
    expect(r.statusCode, r.body).toBe(503);
    expect(fake.calls.slice(calls).map((c) => c.path)).toEqual(['/v1/payment_intents']);
    const [b] = await rows<{ id: number }>(
      t.platform.db,
      sql`SELECT id::int AS id FROM rental_bookings WHERE vehicle_id = ${v}`,
    );
    expect((await payments(b!.id))[0]).toMatchObject({ status: 'failed', provider_action: null });
  });
});
