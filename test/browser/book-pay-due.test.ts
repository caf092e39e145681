import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { breakdownCell, expectAmountDue, money, payTheRestByCard, signInFromHome } from './book-account-steps.js';
import { bookViaApi, signedUpCustomer } from './book-api.js';
import { useStripeShop } from './book-stripe-rig.js';
import { expectAxeClean } from './book-helpers.js';
import { outboxMails } from '../helpers/outbox.js';

// "Pay the rest": a card booking whose dates an operator lengthened owes the difference; its customer sees what was
// paid and what is due on the booking in their account, pays the rest by card (the Stripe.js stand-in against the
// local Stripe-speaking server, which sends the signed webhook as Stripe does) and the booking is paid in full.

const rig = useStripeShop({ key: 'rovaPayDueWidget123', webhookSecret: 'whsec_rovaPayDueWidgetSecret' });
const { open, api } = rig;
const { call } = api;

describe('booking widget, account: pay the rest of a booking whose price went up', () => {
  it('sign in → my booking shows paid and due → "Pay the rest" → card → paid in full; the mail asked for it; verify clean', async () => {
    // a customer with a card booking of 3 days, paid (Stripe's webhook), then lengthened to 5 days by the operator
    const { customer: c, token } = await signedUpCustomer(api);
    const b = await bookViaApi(
      api,
      { token },
      { pickup_date: '2029-04-02', return_date: '2029-04-05', payment_method: 'stripe' },
    );
    const first = await rig.paidByWebhook(b.id);
    const longer = await call<{ data: { total: number; payment_status: string } }>(
      'PUT',
      `/rova-rental/v1/bookings/${b.id}`,
      { admin: true, status: 200, body: { return_date: '2029-04-07' } },
    );
    expect(longer.data.payment_status).toBe('partially_paid');
    const due = longer.data.total - b.total;
    expect(due).toBeGreaterThan(0);
    const [mail] = await outboxMails(rig.shop.t.platform, sql`m.to_address = ${c.email} AND m.template = 'amount_due'`);
    expect(mail!.subject).toBe(`[Rova] Amount due — ${b.reference}`);
    expect(mail!.text_body).toContain(`Amount due: ${due.toFixed(2)} ${b.currency}`);

    // the customer, in the browser: from the landing page to the demo shop's account page
    const { page, events, violations } = await open('/');
    const w = await signInFromHome(page, c);
    await w.locator('h2', { hasText: 'My bookings' }).waitFor();
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
    const payRest = await expectAmountDue(page, w, b, { due, total: longer.data.total }, 'booking with an amount due');

    const asking = page.waitForRequest((r) => r.url().endsWith(`/rova-rental/v2/my/bookings/${b.id}/pay-due`));
    await payRest.click();
    // a retry after a lost answer must get the same intent: the widget keys the attempt
    expect((await asking).headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await payTheRestByCard(page, w, b, due, 'pay the rest');
    expect(await w.locator('button[data-f=pay-due]').count()).toBe(0);
    expect(await page.getByLabel('Card number').count()).toBe(0);

    const after = await call<{ data: { payment_status: string; balance: { paid: number; due: number } } }>(
      'GET',
      `/rova-rental/v2/my/bookings/${b.id}`,
      { token, status: 200 },
    );
    expect(after.data).toMatchObject({ payment_status: 'paid', balance: { paid: longer.data.total, due: 0 } });
    const dueIntent = [...rig.fake.intents.values()].filter(
      (pi) => pi.metadata.booking_id === String(b.id) && pi.id !== first.id,
    );
    expect(dueIntent.map((pi) => [pi.amount, pi.status])).toEqual([[Math.round(due * 100), 'succeeded']]);
    expect(rig.fake.webhooks.at(-1)).toEqual({ type: 'payment_intent.succeeded', status: 200 });
    expect((await events()).filter((e) => e.type === 'rova:paid').map((e) => e.detail)).toEqual([
      { id: b.id, reference: b.reference, total: due, currency: b.currency },
    ]);
    expect((await verifyIntegrity(rig.shop.t.platform.db)).findings).toEqual([]);
    expect(await violations()).toEqual([]);
  });

  it('a deposit paid by card: my booking says the rest is due at pick-up or now by card → "Pay the rest" → paid in full', async () => {
    const { customer: c, token } = await signedUpCustomer(api);
    const b = await bookViaApi(
      api,
      { token },
      { pickup_date: '2029-05-07', return_date: '2029-05-10', payment_method: 'stripe', payment_plan: 'deposit' },
    );
    const first = await rig.paidByWebhook(b.id);
    const booked = await call<{ data: { payment_status: string; balance: { paid: number; due: number } } }>(
      'GET',
      `/rova-rental/v2/my/bookings/${b.id}`,
      { token, status: 200 },
    );
    expect(booked.data.payment_status).toBe('deposit_paid');
    const deposit = first.amount / 100;
    const rest = Math.round((b.total - deposit) * 100) / 100;
    expect(deposit).toBeGreaterThan(0);
    expect(booked.data.balance).toMatchObject({ paid: deposit, due: rest });

    const { page, violations } = await open('/');
    const w = await signInFromHome(page, c);
    await w.locator('h2', { hasText: 'My bookings' }).waitFor();
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
    const payRest = w.locator('button[data-f=pay-due]');
    await payRest.waitFor();
    expect(await payRest.textContent()).toBe(`Pay the rest (${money(rest, b.currency)}) by card`);
    expect(await w.locator('p[data-rest]').textContent()).toBe(
      `The rest, ${money(rest, b.currency)}, is due at pick-up; you can also pay it now by card.`,
    );
    expect(await breakdownCell(page, w, 'Paid').textContent()).toBe(money(deposit, b.currency));
    expect(await breakdownCell(page, w, 'Amount due').textContent()).toBe(money(rest, b.currency));
    expect(await breakdownCell(page, w, 'Total').textContent()).toBe(money(b.total, b.currency));
    await expectAxeClean(page, 'deposit paid, the rest due');

    await payRest.click();
    await payTheRestByCard(page, w, b, rest, 'pay the rest after a deposit');
    expect(await w.locator('p[data-rest]').count()).toBe(0);
    expect(await w.locator('button[data-f=pay-due]').count()).toBe(0);
    const after = await call<{ data: { payment_status: string; balance: { paid: number; due: number } } }>(
      'GET',
      `/rova-rental/v2/my/bookings/${b.id}`,
      { token, status: 200 },
    );
    expect(after.data).toMatchObject({ payment_status: 'paid', balance: { paid: b.total, due: 0 } });
    expect(
      [...rig.fake.intents.values()]
        .filter((pi) => pi.metadata.booking_id === String(b.id))
        .map((pi) => [pi.amount, pi.status]),
    ).toEqual([
      [Math.round(deposit * 100), 'succeeded'],
      [Math.round(rest * 100), 'succeeded'],
    ]);
    expect((await verifyIntegrity(rig.shop.t.platform.db)).findings).toEqual([]);
    expect(await violations()).toEqual([]);
  });

  it('pay at pick-up: my booking offers "Pay … now by card" → card → confirmed and paid in full before pick-up', async () => {
    const { customer: c, token } = await signedUpCustomer(api);
    const b = await bookViaApi(
      api,
      { token },
      { pickup_date: '2029-06-04', return_date: '2029-06-06', payment_method: 'pay_at_pickup' },
    );
    const { page, events, violations } = await open('/');
    const w = await signInFromHome(page, c);
    await w.locator('h2', { hasText: 'My bookings' }).waitFor();
    await w.locator(`button[data-f=booking-${b.id}]`).click();
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
    const payNow = w.locator('button[data-f=pay-due]');
    await payNow.waitFor();
    expect(await payNow.textContent()).toBe(`Pay ${money(b.total, b.currency)} now by card`);
    expect(await breakdownCell(page, w, 'Pay by').textContent()).toBe('At pick-up (the vehicle is held until then)');
    expect(await breakdownCell(page, w, 'Amount due').textContent()).toBe(money(b.total, b.currency));
    expect(await w.locator('table.breakdown').getByRole('rowheader', { name: 'Paid', exact: true }).count()).toBe(0);
    expect(await w.locator('p[data-instructions]').textContent()).toMatch(/^To pay: .*Reference: /);
    await expectAxeClean(page, 'pay at pick-up, payable now');

    await payNow.click();
    await w.locator('h2', { hasText: `Pay booking ${b.reference}` }).waitFor();
    const cardField = page.getByLabel('Card number');
    await cardField.waitFor();
    expect(await w.locator('tr.total td').textContent()).toBe(money(b.total, b.currency));
    await expectAxeClean(page, 'pay a reservation now');
    await cardField.fill('4242 4242 4242 4242');
    await w.locator('button[data-f=pay]').click();
    await w
      .locator('p.notice', {
        hasText: `Payment of ${money(b.total, b.currency)} received: your booking is paid in full.`,
      })
      .waitFor();
    await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
    expect(await w.locator('button[data-f=pay-due]').count()).toBe(0);
    expect(await breakdownCell(page, w, 'Status').textContent()).toBe('Confirmed');
    const after = await call<{
      data: { status: string; payment_status: string; balance: { paid: number; due: number } };
    }>('GET', `/rova-rental/v2/my/bookings/${b.id}`, { token, status: 200 });
    expect(after.data).toMatchObject({
      status: 'confirmed',
      payment_status: 'paid',
      balance: { paid: b.total, due: 0 },
    });
    expect((await events()).filter((e) => e.type === 'rova:paid').map((e) => e.detail)).toEqual([
      { id: b.id, reference: b.reference, total: b.total, currency: b.currency },
    ]);
    expect((await verifyIntegrity(rig.shop.t.platform.db)).findings).toEqual([]);
    expect(await violations()).toEqual([]);
  });
});
