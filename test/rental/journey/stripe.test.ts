// @integration: webhook events deduplicate on a unique constraint; payments move under the booking lock
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { readJourneySettings } from '../../../src/modules/rental/bookings/settings.js';
import { stripeAmount } from '../../../src/modules/rental/payments/stripe.js';
import { makeApp, type TestApp } from '../../helpers/app.js';
import { rule, vehicle } from '../helpers.js';
import { startStripe, stripeEvent } from './stripe-server.js';

const V2 = '/wp-json/rova-rental/v2';
const R = '/wp-json/rova/v1';
const SK = 'sk_test_rovaLocalFake123';
const WHSEC = 'whsec_rovaLocalWebhookSecret';

type Fake = Awaited<ReturnType<typeof startStripe>>;
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

describe('stripe payment provider (real SDK against a local Stripe-speaking server)', () => {
  let t: TestApp;
  let fake: Fake;
  let admin: string;
  beforeAll(async () => {
    fake = await startStripe({ secretKey: SK });
    t = await makeApp({
      env: {
        RENTAL_WRITE_RATE_LIMIT: '100000',
        RENTAL_PUBLIC_RATE_LIMIT: '100000',
        BOOKING_PAYMENT_PROVIDERS: 'offline,stripe',
        STRIPE_SECRET_KEY: SK,
        STRIPE_WEBHOOK_SECRET: WHSEC,
        STRIPE_API_BASE: fake.url,
      },
    });
    admin = (await t.userWithKey('administrator')).key;
    await rule(t, { name: 'VAT', kind: 'tax', percent: '10' });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const customerKey = async () => (await t.userWithKey('customer')).key;
  const body = (v: number, d1: string, d2: string, plan = 'full') => ({
    vehicle_id: v,
    pickup_date: d1,
    return_date: d2,
    payment_method: 'stripe',
    payment_plan: plan,
  });
  const create = (key: string, b: Record<string, unknown>) =>
    t.inject({ method: 'POST', url: `${V2}/booking/create`, headers: { 'x-rova-api-key': key }, payload: b });
  const webhook = (payload: string, header: string | undefined) =>
    t.inject({
      method: 'POST',
      url: `${V2}/payments/stripe/webhook`,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(header === undefined ? {} : { 'stripe-signature': header }),
      },
      payload,
    });
  const signed = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
    webhook(
      payload,
      Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: opts.secret ?? WHSEC,
        ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
      }),
    );
  const booking = async (id: number) =>
    rowsOf<{ status: string; payment_status: string; notes: string; holds_slot: boolean }>(
      await t.platform.db.execute(
        sql`SELECT status, payment_status, notes, holds_slot FROM rental_bookings WHERE id = ${id}`,
      ),
    )[0]!;
  const eventsOf = async (type: string, bookingId: number) =>
    rowsOf<{ n: number }>(
      await t.platform.db.execute(
        sql`SELECT count(*)::int AS n FROM rova_events WHERE type = ${type} AND (payload->'data'->>'booking_id' = ${String(bookingId)} OR payload->'data'->>'id' = ${String(bookingId)})`,
      ),
    )[0]!.n;

  it('settings: stripe without its keys, a bad key or a bad API base stops the start (ConfigError naming the variable)', () => {
    const cfg = (env: Record<string, string>) => ({ ...loadConfig({}), env }) as ReturnType<typeof loadConfig>;
    expect(() => readJourneySettings(cfg({ BOOKING_PAYMENT_PROVIDERS: 'stripe' }))).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => readJourneySettings(cfg({ BOOKING_PAYMENT_PROVIDERS: 'stripe', STRIPE_SECRET_KEY: SK }))).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(() =>
      readJourneySettings(
        cfg({ BOOKING_PAYMENT_PROVIDERS: 'stripe', STRIPE_SECRET_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: WHSEC }),
      ),
    ).toThrow(/STRIPE_SECRET_KEY/);
    expect(() =>
      readJourneySettings(
        cfg({
          BOOKING_PAYMENT_PROVIDERS: 'stripe',
          STRIPE_SECRET_KEY: SK,
          STRIPE_WEBHOOK_SECRET: WHSEC,
          STRIPE_API_BASE: 'ftp://x',
        }),
      ),
    ).toThrow(/STRIPE_API_BASE/);
    expect(() => readJourneySettings(cfg({ BOOKING_PAYMENT_PROVIDERS: 'paypal' }))).toThrow(
      /BOOKING_PAYMENT_PROVIDERS/,
    );
    expect(readJourneySettings(cfg({})).paymentProviders).toEqual(new Set(['offline']));
    expect([
      stripeAmount('220.00', 'USD'),
      stripeAmount('1000', 'JPY'),
      stripeAmount('1.234', 'KWD'),
      stripeAmount('0.005', 'EUR'),
    ]).toEqual([22000, 1000, 1230, 1]);
    // the booking widget's card payment: a publishable key and where Stripe.js comes from
    const ok = { BOOKING_PAYMENT_PROVIDERS: 'offline,stripe', STRIPE_SECRET_KEY: SK, STRIPE_WEBHOOK_SECRET: WHSEC };
    expect(() => readJourneySettings(cfg({ ...ok, STRIPE_PUBLISHABLE_KEY: SK }))).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    expect(() => readJourneySettings(cfg({ ...ok, ROVA_STRIPE_JS_URL: 'javascript:alert(1)' }))).toThrow(
      /ROVA_STRIPE_JS_URL/,
    );
    expect(readJourneySettings(cfg(ok)).stripe).toMatchObject({
      publishableKey: null,
      jsUrl: 'https://js.stripe.com/v3/',
    });
    expect(
      readJourneySettings(
        cfg({ ...ok, STRIPE_PUBLISHABLE_KEY: 'pk_test_abc', ROVA_STRIPE_JS_URL: 'http://127.0.0.1:9/v3/' }),
      ).stripe,
    ).toMatchObject({ publishableKey: 'pk_test_abc', jsUrl: 'http://127.0.0.1:9/v3/' });
  });

  it('GET /payments/config (public): the providers; no card payment for browsers without a publishable key', async () => {
    const r = await t.inject({ method: 'GET', url: `${V2}/payments/config` });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ success: true, data: { providers: ['offline', 'stripe'], stripe: null }, message: '' });
  });

  it('create → a PaymentIntent for the amount due (minor units, metadata, idempotency key) and its client_secret', async () => {
    const v = await vehicle(t, { price_per_day: '100.00', deposit_percent: '20' });
    const before = fake.calls.length;
    const r = await create(await customerKey(), body(v, '2033-01-10', '2033-01-12', 'deposit'));
    expect(r.statusCode).toBe(201);
    const d = r.json().data;
    expect(d).toMatchObject({
      amount_due: 44,
      currency: 'USD',
      booking: { status: 'pending_payment' },
      payment: { provider: 'stripe' },
    });
    const call = fake.calls.slice(before).find((c) => c.path === '/v1/payment_intents')!;
    expect(call).toMatchObject({
      method: 'POST',
      authorization: `Bearer ${SK}`,
      params: {
        amount: '4400',
        currency: 'usd',
        'metadata[booking_id]': String(d.booking.id),
        'automatic_payment_methods[enabled]': 'true',
      },
    });
    expect(call.idempotencyKey).toMatch(/^rova-payment-\d+$/);
    const pi = [...fake.intents.values()].find((x) => x.metadata.booking_id === String(d.booking.id))!;
    expect(d.payment.client_secret).toBe(pi.client_secret);
    const pay = rowsOf<{ external_id: string; status: string }>(
      await t.platform.db.execute(
        sql`SELECT external_id, status FROM rental_payments WHERE booking_id = ${d.booking.id}`,
      ),
    );
    expect(pay).toEqual([{ external_id: pi.id, status: 'pending' }]);
  });

  it('signed payment_intent.succeeded → confirmed; a replayed event acts once; payment_failed keeps it pending', async () => {
    const v = await vehicle(t);
    const d = (await create(await customerKey(), body(v, '2033-02-10', '2033-02-12'))).json().data;
    const pi = [...fake.intents.values()].find((x) => x.metadata.booking_id === String(d.booking.id))!;
    const failed = await signed(stripeEvent('payment_intent.payment_failed', fake.fail(pi.id)));
    expect(failed.statusCode).toBe(200);
    expect(failed.json().data).toMatchObject({
      type: 'payment_intent.payment_failed',
      outcome: 'payment_failed_recorded',
      booking_id: d.booking.id,
    });
    expect(await booking(d.booking.id)).toMatchObject({ status: 'pending_payment', holds_slot: true });
    expect(await eventsOf('payment.failed', d.booking.id)).toBe(1);
    // the customer retries the same intent and it succeeds
    const ok = stripeEvent('payment_intent.succeeded', fake.succeed(pi.id));
    const r = await signed(ok);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ success: true, data: { outcome: 'confirmed', booking_id: d.booking.id } });
    expect(await booking(d.booking.id)).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    const again = await signed(ok);
    expect(again.json().data).toMatchObject({ outcome: 'duplicate' });
    expect(await eventsOf('payment.succeeded', d.booking.id)).toBe(1);
    expect(await eventsOf('booking.confirmed', d.booking.id)).toBe(1);
  });

  it('unsigned, forged and stale webhooks → 400 and nothing changes', async () => {
    const v = await vehicle(t);
    const d = (await create(await customerKey(), body(v, '2033-03-10', '2033-03-12'))).json().data;
    const pi = [...fake.intents.values()].find((x) => x.metadata.booking_id === String(d.booking.id))!;
    const payload = stripeEvent('payment_intent.succeeded', fake.succeed(pi.id));
    const unsigned = await webhook(payload, undefined);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      details: { reason: 'missing_signature' },
    });
    const forged = await signed(payload, { secret: 'whsec_someoneElse' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().details.reason).toBe('signature_mismatch');
    // the body changed after signing (amount edited)
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC });
    const tampered = await webhook(payload.replace(/"amount":\d+/, '"amount":1'), header);
    expect(tampered.statusCode).toBe(400);
    const stale = await signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().details.reason).toBe('timestamp_outside_tolerance');
    // a signature from the future (beyond the tolerance) is no more usable than a stale one
    const future = await signed(payload, { timestamp: Math.floor(Date.now() / 1000) + 3600 });
    expect(future.statusCode).toBe(400);
    expect(future.json()).toMatchObject({
      success: false,
      error_code: 'INVALID_PARAMS',
      details: { reason: 'timestamp_outside_tolerance' },
    });
    // correctly signed but malformed events are input too: 400, nothing recorded
    for (const bad of [
      { id: 'evt_null_data', type: 'payment_intent.succeeded', data: null },
      { id: 'evt_no_object', type: 'payment_intent.succeeded', data: {} },
      { type: 'payment_intent.succeeded', data: { object: { id: pi.id } } },
      { id: 'evt_no_type', data: { object: {} } },
      { id: 'evt_pi_without_id', type: 'payment_intent.succeeded', data: { object: { amount: 1 } } },
    ]) {
      const r = await signed(JSON.stringify(bad));
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json()).toMatchObject({
        success: false,
        error_code: 'INVALID_PARAMS',
        details: { reason: 'malformed_event' },
      });
    }
    expect((await webhook(payload, 'garbage')).statusCode).toBe(400);
    expect(await booking(d.booking.id)).toMatchObject({ status: 'pending_payment', payment_status: 'unpaid' });
    expect(
      rowsOf<{ n: number }>(
        await t.platform.db.execute(
          sql`SELECT count(*)::int AS n FROM rental_stripe_events WHERE payment_intent = ${pi.id}`,
        ),
      )[0]!.n,
    ).toBe(0);
    // the genuine delivery still works afterwards
    expect((await signed(payload)).json().data.outcome).toBe('confirmed');
  });

  it('late payment on a slot taken after the hold expired → refund call to Stripe and the booking cancelled with a reason', async () => {
    const v = await vehicle(t, { price_per_day: '80.00' });
    const a = (await create(await customerKey(), body(v, '2033-04-10', '2033-04-12'))).json().data;
    await t.platform.db.execute(
      sql`UPDATE rental_bookings SET payment_deadline = now() - interval '1 second' WHERE id = ${a.booking.id}`,
    );
    const b = await create(await customerKey(), { ...body(v, '2033-04-11', '2033-04-13'), payment_method: 'offline' });
    expect(b.statusCode).toBe(201);
    const pi = [...fake.intents.values()].find((x) => x.metadata.booking_id === String(a.booking.id))!;
    const before = fake.refunds.length;
    const r = await signed(stripeEvent('payment_intent.succeeded', fake.succeed(pi.id)));
    expect(r.json().data).toMatchObject({ outcome: 'refunded_slot_taken', booking_id: a.booking.id });
    expect(fake.refunds.slice(before)).toEqual([
      expect.objectContaining({ object: 'refund', payment_intent: pi.id, amount: pi.amount, currency: 'usd' }),
    ]);
    const call = fake.calls.filter((c) => c.path === '/v1/refunds').at(-1)!;
    expect(call.idempotencyKey).toMatch(/^rova-refund-\d+-17600$/);
    const row = await booking(a.booking.id);
    expect(row).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
    expect(row.notes).toContain('refunded');
    expect(await booking(b.json().data.booking.id)).toMatchObject({ status: 'pending_payment', holds_slot: true });
  });

  it('the provider refuses → 503 SERVICE_UNAVAILABLE with Retry-After, nothing charged, the slot is free again', async () => {
    const v = await vehicle(t);
    const key = await customerKey();
    fake.failNext(1);
    const r = await create(key, body(v, '2033-05-10', '2033-05-12'));
    expect(r.statusCode).toBe(503);
    expect(r.headers['retry-after']).toBe('60');
    expect(r.json()).toMatchObject({
      success: false,
      error_code: 'SERVICE_UNAVAILABLE',
      details: { reason: 'payment_provider_error' },
    });
    const rows = rowsOf<{ status: string; holds_slot: boolean }>(
      await t.platform.db.execute(sql`SELECT status, holds_slot FROM rental_bookings WHERE vehicle_id = ${v}`),
    );
    expect(rows).toEqual([{ status: 'cancelled', holds_slot: false }]);
    expect((await create(key, body(v, '2033-05-10', '2033-05-12'))).statusCode).toBe(201);
  });

  it('the provider refuses with an Idempotency-Key → 503, and the key is freed with the cancellation: the retry books afresh', async () => {
    const v = await vehicle(t);
    const key = await customerKey();
    const send = () =>
      t.inject({
        method: 'POST',
        url: `${V2}/booking/create`,
        headers: { 'x-rova-api-key': key, 'idempotency-key': 'stripe-refused-1' },
        payload: body(v, '2033-05-20', '2033-05-22'),
      });
    fake.failNext(1);
    expect((await send()).statusCode).toBe(503);
    const retry = await send();
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().data.payment.client_secret).toBeTruthy();
    const rows = rowsOf<{ status: string }>(
      await t.platform.db.execute(sql`SELECT status FROM rental_bookings WHERE vehicle_id = ${v} ORDER BY id`),
    );
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'pending_payment']);
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(retry.json());
  });

  it('the README journey with the stripe provider: search → check → register → create → webhook → confirmed → my bookings → cancel with refund', async () => {
    const v = await vehicle(t, { price_per_day: '61.00', name: 'Journey Roadster', category: 'journey' });
    const search = await t.inject({
      method: 'GET',
      url: `${V2}/vehicles/search?pickup_date=2033-06-10&return_date=2033-06-13&category=journey&sort=price_asc&per_page=3`,
    });
    expect(search.statusCode).toBe(200);
    const vid = search.json().data.items[0].vehicle_id;
    expect(vid).toBe(v);
    const check = await t.inject({
      method: 'POST',
      url: `${V2}/booking/check`,
      payload: { vehicle_id: vid, pickup_date: '2033-06-10', return_date: '2033-06-13' },
    });
    expect(check.json().data).toMatchObject({ available: true, days: 3 });
    const total = check.json().data.total;
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${R}/auth/register`,
          payload: { email: 'stripe-reader@example.test', password: 'a long password', first_name: 'Rea' },
        })
      ).statusCode,
    ).toBe(202);
    const login = await t.inject({
      method: 'POST',
      url: `${R}/auth/login`,
      payload: { login: 'stripe-reader@example.test', password: 'a long password' },
    });
    const h = {
      cookie: `rova_session=${login.cookies.find((c) => c.name === 'rova_session')!.value}`,
      'x-wp-nonce': login.json().nonce as string,
    };
    const created = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { ...h, 'idempotency-key': 'stripe-journey-1' },
      payload: body(vid, '2033-06-10', '2033-06-13'),
    });
    expect(created.statusCode).toBe(201);
    const d = created.json().data;
    expect(d).toMatchObject({ amount_due: total, payment: { provider: 'stripe' } });
    const pi = [...fake.intents.values()].find((x) => x.client_secret === d.payment.client_secret)!;
    expect(pi.amount).toBe(stripeAmount(total, 'USD'));
    // the browser confirms with the client secret; Stripe sends the signed webhook
    expect((await signed(stripeEvent('payment_intent.succeeded', fake.succeed(pi.id)))).json().data.outcome).toBe(
      'confirmed',
    );
    const mine = await t.inject({ method: 'GET', url: `${V2}/my/bookings`, headers: h });
    expect(mine.json().data).toMatchObject({
      total: 1,
      items: [{ id: d.booking.id, status: 'confirmed', payment_status: 'paid' }],
    });
    const refundsBefore = fake.refunds.length;
    const cancel = await t.inject({ method: 'POST', url: `${V2}/my/bookings/${d.booking.id}/cancel`, headers: h });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data).toMatchObject({
      fee: 0,
      refund: total,
      booking: { status: 'cancelled', payment_status: 'refunded' },
    });
    expect(fake.refunds.slice(refundsBefore)).toEqual([
      expect.objectContaining({ payment_intent: pi.id, amount: pi.amount }),
    ]);
    expect(admin).toBeTruthy();
  });

  it('Stripe refuses a refund → the cancellation stands, the refund stays owed with its error, and the job delivers it once later', async () => {
    const v = await vehicle(t, { price_per_day: '45.00' });
    const key = await customerKey();
    const d = (await create(key, body(v, '2033-08-10', '2033-08-12'))).json().data;
    const pi = [...fake.intents.values()].find((x) => x.metadata.booking_id === String(d.booking.id))!;
    expect((await signed(stripeEvent('payment_intent.succeeded', fake.succeed(pi.id)))).json().data.outcome).toBe(
      'confirmed',
    );
    const before = fake.refunds.length;
    fake.failNext(1);
    const cancel = await t.inject({
      method: 'POST',
      url: `${V2}/my/bookings/${d.booking.id}/cancel`,
      headers: { 'x-rova-api-key': key },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data).toMatchObject({ fee: 0, booking: { status: 'cancelled', payment_status: 'refunded' } });
    expect(fake.refunds.length).toBe(before);
    const owed = async () =>
      rowsOf<{ status: string; attempts: number; last_error: string | null; amount: string }>(
        await t.platform.db.execute(
          sql`SELECT status, attempts, last_error, amount::text AS amount FROM rental_refunds WHERE booking_id = ${d.booking.id}`,
        ),
      );
    expect((await owed()).map((r) => ({ ...r, amount: Number(r.amount) }))).toEqual([
      { status: 'pending', attempts: 1, last_error: expect.stringContaining('payment provider'), amount: d.amount_due },
    ]);
    const { runHoldExpiry } = await import('../../../src/modules/rental/bookings/jobs.js');
    await runHoldExpiry(t.platform); // not due yet (backoff): nothing is called
    expect(fake.refunds.length).toBe(before);
    await t.platform.db.execute(
      sql`UPDATE rental_refunds SET next_attempt_at = now() WHERE booking_id = ${d.booking.id}`,
    );
    await runHoldExpiry(t.platform);
    expect(fake.refunds.slice(before)).toEqual([expect.objectContaining({ payment_intent: pi.id, amount: pi.amount })]);
    expect(await owed()).toEqual([expect.objectContaining({ status: 'done', attempts: 2, last_error: null })]);
    await t.platform.db.execute(
      sql`UPDATE rental_refunds SET next_attempt_at = now() WHERE booking_id = ${d.booking.id}`,
    );
    await runHoldExpiry(t.platform); // delivered refunds are never sent again
    expect(fake.refunds.length).toBe(before + 1);
  });
});

describe('stripe not enabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
  }, 240_000);
  afterAll(async () => t?.close());

  it('payment_method stripe → 400 naming the field; the webhook route answers 404', async () => {
    const v = await vehicle(t);
    const key = (await t.userWithKey('customer')).key;
    const r = await t.inject({
      method: 'POST',
      url: `${V2}/booking/create`,
      headers: { 'x-rova-api-key': key },
      payload: {
        vehicle_id: v,
        pickup_date: '2033-01-01',
        return_date: '2033-01-02',
        payment_method: 'stripe',
        payment_plan: 'full',
      },
    });
    expect(r.json()).toMatchObject({ error_code: 'INVALID_PARAMS', details: { field: 'payment_method' } });
    const payload = stripeEvent('payment_intent.succeeded', { id: 'pi_x', object: 'payment_intent', metadata: {} });
    const w = await t.inject({
      method: 'POST',
      url: `${V2}/payments/stripe/webhook`,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC }),
      },
      payload,
    });
    expect(w.statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `${V2}/payments/config` })).json().data).toEqual({
      providers: ['offline'],
      stripe: null,
    });
  });
});
