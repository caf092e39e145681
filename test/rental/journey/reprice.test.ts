// @integration: a booking's price change settles its money under the booking lock, racing payments and cancels
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStatus } from '../../../src/modules/rental/bookings/service.js';
import { verifyIntegrity } from '../../../src/modules/rental/integrity/service.js';
import { bookingMoneyTxs } from '../../../src/modules/rental/ledger/income-repo.js';
import { rows } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { vehicle } from '../helpers.js';
import { vendor, vendorVehicle } from '../market/helpers.js';
import { stripeApp, type StripeApp } from './stripe-app.js';
import { stripeEvent } from './stripe-server.js';

// Issue 37 item 1: new dates re-price a booking, and the price change settles the money paid for it — the overpaid
// part refunded through the payment's provider (recorded for offline payments), the missing part due
// (payment_status partially_paid, a pending payment of the difference) — so payments minus refunds always equal what
// payment_status says is paid (what `rova verify` checks), and completion's commission is on what was really paid.
const V1 = '/wp-json/rova-rental/v1';
const V2 = '/wp-json/rova-rental/v2';
let t: TestApp;
let fake: StripeApp['fake'];
let admin: Record<string, string>;
let stripe: StripeApp;
beforeAll(async () => {
  stripe = await stripeApp();
  ({ t, fake, admin } = stripe);
}, 240_000);
afterAll(async () => stripe?.close());

let day = 0;
const date = (n: number) => new Date(Date.UTC(2036, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const signed = (payload: string) => stripe.signed(payload);
const intentOfPayment = (paymentId: number) =>
  [...fake.intents.values()].find((x) => x.metadata.payment_id === String(paymentId))!;

/** A customer's 4-day booking (100.00 a day) on the vehicle, paid in full with the provider; its first day is returned. */
async function paidBooking(
  v: number,
  provider: 'offline' | 'stripe',
  paid = true,
): Promise<{ id: number; first: number; customer: Record<string, string> }> {
  day += 10;
  const customer = { 'x-rova-api-key': (await t.userWithKey('customer')).key };
  const created = await t.inject({
    method: 'POST',
    url: `${V2}/booking/create`,
    headers: customer,
    payload: {
      vehicle_id: v,
      pickup_date: date(day),
      return_date: date(day + 4),
      payment_method: provider,
      payment_plan: 'full',
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.booking.id as number;
  if (paid && provider === 'offline')
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: admin })).json().data.outcome,
    ).toBe('confirmed');
  if (paid && provider === 'stripe') {
    const pay = (await money(id)).payments[0]!;
    expect(
      (await signed(stripeEvent('payment_intent.succeeded', fake.succeed(intentOfPayment(pay.id).id)))).json().data
        .outcome,
    ).toBe('confirmed');
  }
  return { id, first: day, customer };
}

const money = async (id: number) => ({
  booking: (
    await rows<{ status: string; payment_status: string; total: string }>(
      t.platform.db,
      sql`SELECT status, payment_status, total::text AS total FROM rental_bookings WHERE id = ${id}`,
    )
  )[0]!,
  order: (
    await rows<{ total: string; amount_due: string }>(
      t.platform.db,
      sql`SELECT total::text AS total, amount_due::text AS amount_due FROM rental_orders WHERE booking_id = ${id}`,
    )
  )[0],
  payments: await rows<{ id: number; provider: string; status: string; amount: string; refunded_amount: string }>(
    t.platform.db,
    sql`SELECT id::int AS id, provider, status, amount::text AS amount, refunded_amount::text AS refunded_amount FROM rental_payments WHERE booking_id = ${id} ORDER BY id`,
  ),
  refunds: await rows<{ id: number; amount: string; reason: string; status: string }>(
    t.platform.db,
    sql`SELECT id::int AS id, amount::text AS amount, reason, status FROM rental_refunds WHERE booking_id = ${id} ORDER BY id`,
  ),
});
const put = (id: number, body: Record<string, unknown>) =>
  t.inject({ method: 'PUT', url: `${V1}/bookings/${id}`, headers: admin, payload: body });
/** Completes the booking and answers the gross and net of its commission (minor units) as the ledger posted it. */
async function complete(id: number): Promise<{ gross: number; net: number }> {
  await changeStatus(t.platform, id, 'completed', { by: 'admin' });
  const txs = await bookingMoneyTxs(t.platform.db, id);
  expect(txs.map((x) => x.kind)).toEqual(['commission']);
  const memo = txs[0]!.memo as { gross: number; net: number };
  return { gross: memo.gross, net: memo.net };
}
const clean = async () => expect((await verifyIntegrity(t.platform.db)).findings).toEqual([]);

describe('a paid booking whose dates change settles the difference', () => {
  it('offline, shortened: the overpaid part is a refund (booking_repriced, recorded), payment_status paid, commission on the new total; verify clean, and names a tampered refund', async () => {
    const vend = await vendor(t, { commission_rate: '10' });
    const { id, first } = await paidBooking(await vendorVehicle(t, vend.id), 'offline');
    const r = await put(id, { return_date: date(first + 1) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ total: 100, payment_status: 'paid' });
    const m = await money(id);
    expect(m).toMatchObject({
      booking: { status: 'confirmed', payment_status: 'paid', total: '100.00' },
      order: { total: '100.00' },
      payments: [{ provider: 'offline', status: 'succeeded', amount: '400.00', refunded_amount: '300.00' }],
      refunds: [{ amount: '300.00', reason: 'booking_repriced', status: 'done' }],
    });
    await clean();
    expect(await complete(id)).toEqual({ gross: 10000, net: 9000 });
    await clean();
    // the rule verify holds: a refund undone behind its back is named
    await t.platform.db.execute(sql`UPDATE rental_payments SET refunded_amount = 0 WHERE booking_id = ${id}`);
    expect((await verifyIntegrity(t.platform.db)).findings).toEqual([
      `booking ${id}: payments minus refunds are 400.00 USD, but payment_status paid says the total (total 100.00)`,
    ]);
    await t.platform.db.execute(sql`UPDATE rental_payments SET refunded_amount = 300 WHERE booking_id = ${id}`);
    await clean();
  });

  it('offline, lengthened: the difference is due (partially_paid, a pending payment, the order asks it); mark-paid settles it; commission on the new total', async () => {
    const vend = await vendor(t, { commission_rate: '10' });
    const { id, first } = await paidBooking(await vendorVehicle(t, vend.id), 'offline');
    const r = await put(id, { return_date: date(first + 6) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ total: 600, payment_status: 'partially_paid' });
    expect(await money(id)).toMatchObject({
      booking: { payment_status: 'partially_paid', total: '600.00' },
      order: { total: '600.00', amount_due: '200.00' },
      payments: [
        { status: 'succeeded', amount: '400.00', refunded_amount: '0.00' },
        { provider: 'offline', status: 'pending', amount: '200.00' },
      ],
      refunds: [],
    });
    await clean();
    const paid = await t.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: admin });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({
      outcome: 'balance_paid',
      booking: { status: 'confirmed', payment_status: 'paid' },
    });
    expect((await money(id)).payments.map((x) => x.status)).toEqual(['succeeded', 'succeeded']);
    await clean();
    expect(await complete(id)).toEqual({ gross: 60000, net: 54000 });
    await clean();
  });

  it('stripe, shortened: the difference is refunded through Stripe (its own idempotency key per refund), twice for two shortenings', async () => {
    const { id, first } = await paidBooking(await vehicle(t), 'stripe');
    const pay = (await money(id)).payments[0]!;
    const pi = intentOfPayment(pay.id);
    const before = fake.refunds.length;
    expect((await put(id, { return_date: date(first + 3) })).statusCode).toBe(200);
    expect((await put(id, { return_date: date(first + 2) })).statusCode).toBe(200);
    const m = await money(id);
    expect(m).toMatchObject({
      booking: { payment_status: 'paid', total: '200.00' },
      payments: [{ provider: 'stripe', status: 'succeeded', amount: '400.00', refunded_amount: '200.00' }],
      refunds: [
        { amount: '100.00', reason: 'booking_repriced', status: 'done' },
        { amount: '100.00', reason: 'booking_repriced', status: 'done' },
      ],
    });
    // two refunds of the same amount of one payment: two Stripe refunds, not one replayed
    expect(fake.refunds.slice(before)).toEqual([
      expect.objectContaining({ payment_intent: pi.id, amount: 10000 }),
      expect.objectContaining({ payment_intent: pi.id, amount: 10000 }),
    ]);
    expect(
      fake.calls
        .filter((c) => c.path === '/v1/refunds')
        .slice(-2)
        .map((c) => c.idempotencyKey),
    ).toEqual(m.refunds.map((x) => `rova-refund-r${x.id}`));
    await clean();
  });

  it('stripe, lengthened: a PaymentIntent for the difference; its webhook settles it (balance_paid) and the booking is paid', async () => {
    const { id, first } = await paidBooking(await vehicle(t), 'stripe');
    expect((await put(id, { return_date: date(first + 5) })).json().data).toMatchObject({
      total: 500,
      payment_status: 'partially_paid',
    });
    const m = await money(id);
    expect(m.payments).toMatchObject([
      { status: 'succeeded', amount: '400.00' },
      { provider: 'stripe', status: 'pending', amount: '100.00' },
    ]);
    const pi = intentOfPayment(m.payments[1]!.id);
    expect(pi).toMatchObject({ amount: 10000, currency: 'usd', metadata: { booking_id: String(id) } });
    await clean();
    const r = await signed(stripeEvent('payment_intent.succeeded', fake.succeed(pi.id)));
    expect(r.json().data).toMatchObject({ outcome: 'balance_paid', booking_id: id });
    expect(await money(id)).toMatchObject({
      booking: { status: 'confirmed', payment_status: 'paid' },
      payments: [{ status: 'succeeded' }, { status: 'succeeded' }],
      order: { amount_due: '0.00' },
    });
    await clean();
  });

  it('unpaid, shortened: the pending offline payment asks the new total; paying it leaves nothing to refund', async () => {
    const { id, first } = await paidBooking(await vehicle(t), 'offline', false);
    expect((await put(id, { return_date: date(first + 2) })).statusCode).toBe(200);
    expect(await money(id)).toMatchObject({
      booking: { payment_status: 'unpaid' },
      order: { total: '200.00', amount_due: '200.00' },
      payments: [{ status: 'pending', amount: '200.00' }],
    });
    expect(
      (await t.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: admin })).json().data.outcome,
    ).toBe('confirmed');
    expect(await money(id)).toMatchObject({ booking: { payment_status: 'paid' }, refunds: [] });
    await clean();
  });

  it('stripe, shortened before the payment: the intent of the old amount succeeds and the excess is refunded', async () => {
    const { id, first } = await paidBooking(await vehicle(t), 'stripe', false);
    expect((await put(id, { return_date: date(first + 3) })).statusCode).toBe(200);
    const pay = (await money(id)).payments[0]!;
    expect(
      (await signed(stripeEvent('payment_intent.succeeded', fake.succeed(intentOfPayment(pay.id).id)))).json().data
        .outcome,
    ).toBe('confirmed');
    expect(await money(id)).toMatchObject({
      booking: { status: 'confirmed', payment_status: 'paid', total: '300.00' },
      payments: [{ amount: '400.00', refunded_amount: '100.00' }],
      refunds: [{ amount: '100.00', reason: 'booking_repriced', status: 'done' }],
    });
    await clean();
  });
});

describe('a date change racing a payment or a cancel on the same booking (both at once, many times)', () => {
  it('20 rounds: shortening a paid booking while its customer cancels → the money goes back once, never more than was paid', async () => {
    const outcomes = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { id, first, customer } = await paidBooking(await vehicle(t), 'offline');
      const [edit, cancel] = await Promise.all([
        put(id, { return_date: date(first + 1) }),
        t.inject({ method: 'POST', url: `${V2}/my/bookings/${id}/cancel`, headers: customer }),
      ]);
      expect(cancel.statusCode, cancel.body).toBe(200);
      // the edit either came first (then the cancel refunds the rest) or found the booking cancelled (409)
      expect([200, 409]).toContain(edit.statusCode);
      outcomes.add(String(edit.statusCode));
      const m = await money(id);
      expect(m.booking).toMatchObject({ status: 'cancelled', payment_status: 'refunded' });
      expect(m.payments).toEqual([
        expect.objectContaining({ status: 'refunded', amount: '400.00', refunded_amount: '400.00' }),
      ]);
      // shortened first: 300 back for the days dropped, the rest with the cancel; else the cancel gave back all 400
      expect(m.refunds.map((x) => [x.reason, x.amount])).toEqual(
        edit.statusCode === 200
          ? [
              ['booking_repriced', '300.00'],
              ['customer_cancelled', '100.00'],
            ]
          : [['customer_cancelled', '400.00']],
      );
    }
    await clean();
    expect([...outcomes].every((o) => o === '200' || o === '409')).toBe(true);
  }, 240_000);

  it('20 rounds: changing the dates of an unpaid booking while its offline payment is marked paid → paid exactly the final total', async () => {
    for (let i = 0; i < 20; i++) {
      const { id, first } = await paidBooking(await vehicle(t), 'offline', false);
      const longer = i % 2 === 0;
      const [edit, paid] = await Promise.all([
        put(id, { return_date: date(first + (longer ? 6 : 2)) }),
        t.inject({ method: 'POST', url: `${V2}/bookings/${id}/mark-paid`, headers: admin }),
      ]);
      expect(edit.statusCode, edit.body).toBe(200);
      expect(paid.statusCode, paid.body).toBe(200);
      const m = await money(id);
      const kept = m.payments
        .filter((x) => x.status !== 'pending' && x.status !== 'failed')
        .reduce((a, x) => a + Number(x.amount) - Number(x.refunded_amount), 0);
      if (longer && m.booking.payment_status === 'partially_paid') {
        // paid the old total first: the rest is due, asked by a pending payment
        expect(kept).toBe(400);
        expect(m.payments.filter((x) => x.status === 'pending').map((x) => x.amount)).toEqual(['200.00']);
      } else {
        expect(m.booking.payment_status).toBe('paid');
        expect(kept).toBe(Number(m.booking.total));
      }
    }
    await clean();
  }, 240_000);
});
