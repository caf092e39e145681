import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHoldExpiry } from '../../../src/modules/rental/bookings/jobs.js';
import { runPaymentReminders } from '../../../src/modules/rental/bookings/reminders/service.js';
import { DAY, HOUR, MINUTE, moveClock } from '../../rental/clock.js';
import { TERMS_ACCEPTED } from '../book-helpers.js';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  startAdminRig,
  usd,
  type AdminRig,
} from './helpers.js';

// Issue 35.1, as the operator at the desk: a pay-at-pick-up booking is still held after its old 15-minute mark; a
// bank transfer is reminded, then lapses; Record payment confirms one. The clock is moved (moveClock), never slept.
let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Booking {
  id: number;
  reference: string;
  status: string;
  payment_status: string;
  payment_deadline: string | null;
  total: number;
  customer_email: string;
}

let vehicleId = 0;
let year = 2036;
async function customerBooking(method: 'pay_at_pickup' | 'bank_transfer', who: string): Promise<Booking> {
  year += 1;
  const r = await rig.api<{ data: { booking: Booking } }>('/rova-rental/v2/booking/create', {
    method: 'POST',
    body: JSON.stringify({
      vehicle_id: vehicleId,
      pickup_date: `${year}-05-10`,
      return_date: `${year}-05-13`,
      payment_method: method,
      payment_plan: 'full',
      customer: { name: who, email: `${who.toLowerCase().replace(/ /g, '.')}@example.test` },
      ...TERMS_ACCEPTED, // the customer accepted the demo store's terms
    }),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.booking;
}
const mailsTo = async (to: string) =>
  (await rig.api<{ template: string }[]>(`/rova/v1/outbox?to=${encodeURIComponent(to)}`)).body
    .map((m) => m.template)
    .reverse();
const words = (s: string | null) => (s ?? '').replace(/[\s\u202f]+/g, ' ').trim();

describe('payment rules at the desk (issue 35.1)', () => {
  beforeAll(async () => {
    vehicleId = (await rental<{ items: { id: number }[] }>(rig, '/rova-rental/v1/vehicles?per_page=1&status=active'))
      .items[0]!.id;
  });

  it('pay at pick-up is still held after its old 15-minute mark; a bank transfer is reminded, then lapses; Record payment confirms another', async () => {
    const db = rig.shop.t.platform.db;
    const reserved = await customerBooking('pay_at_pickup', 'Pickup Payer');
    const transfer = await customerBooking('bank_transfer', 'Late Transfer');
    const paying = await customerBooking('bank_transfer', 'Desk Payer');
    expect(reserved.payment_deadline).toBeNull();
    expect(transfer.payment_deadline).not.toBeNull();

    // 16 minutes later, the jobs ran: the reservation still holds, nothing was mailed but its confirmation
    await moveClock(db, 16 * MINUTE, [reserved.id, transfer.id, paying.id]);
    await runPaymentReminders(rig.shop.t.platform);
    await runHoldExpiry(rig.shop.t.platform);

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a);
    const tz = rig.shop.t.config.storeTimezone;
    const openBooking = async (b: Booking) => {
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Bookings' }).click();
      await page.getByRole('combobox', { name: /^Payment/ }).selectOption('due');
      await page.getByLabel('Search').fill(b.reference);
      // the search is debounced: click once the list shows only this booking, or its late update would navigate back
      await page.getByText('1 total · page 1 of 1', { exact: true }).waitFor();
      await expect.poll(() => page.getByRole('table', { name: 'Bookings' }).locator('tbody tr').count()).toBe(1);
      await page.getByRole('link', { name: b.reference }).click();
      await page.getByRole('heading', { name: `Booking ${b.reference}` }).waitFor();
    };

    await openBooking(reserved);
    expect(await page.getByTestId('detail-status').textContent()).toBe('Pending Payment');
    expect(await page.getByTestId('detail-deadline').textContent()).toBe('None: held until pick-up');
    expect(await page.getByTestId('detail-payment').textContent()).toContain('pay at pick-up');
    expect(await page.getByTestId('detail-due').textContent()).toBe(usd(reserved.total));
    expect(await mailsTo(reserved.customer_email)).toEqual(['booking_created']);
    // the customer accepted the demo store's rental terms: the detail says which version, and when
    await expect.poll(() => page.getByTestId('driver-terms').textContent()).toMatch(/^Version 2026-11, /);

    // the bank transfer: its deadline on the detail; a day before it the reminder goes, once
    await openBooking(transfer);
    const shown = new Intl.DateTimeFormat('en-US', { timeZone: tz, dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(Date.parse(transfer.payment_deadline!) - 16 * MINUTE),
    );
    expect(words(await page.getByTestId('detail-deadline').textContent())).toBe(words(shown));
    await moveClock(db, DAY + HOUR, [transfer.id]);
    expect(await runPaymentReminders(rig.shop.t.platform)).toBe(1);
    expect(await runPaymentReminders(rig.shop.t.platform)).toBe(0);
    expect(await mailsTo(transfer.customer_email)).toEqual(['booking_created', 'payment_reminder']);
    // past the deadline: lapsed, cancelled and mailed — after the reminder
    await moveClock(db, DAY, [transfer.id]);
    expect(await runHoldExpiry(rig.shop.t.platform)).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByTestId('detail-status').textContent()).toBe('Cancelled');
    expect(await page.getByRole('button', { name: 'Record payment' }).count()).toBe(0);
    expect(await mailsTo(transfer.customer_email)).toEqual([
      'booking_created',
      'payment_reminder',
      'booking_cancelled',
    ]);

    // Record payment: the transfer arrived for the third booking; the desk records it
    await openBooking(paying);
    expect(await page.getByTestId('detail-paid').textContent()).toBe(usd(0));
    await page.getByLabel('Method').selectOption('bank_transfer');
    await page.getByLabel('Reference').fill('TRX-2040-77');
    await expectAxeClean(page, 'booking detail with Record payment');
    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText(`Payment recorded: ${paying.reference} is confirmed`).waitFor();
    await expect.poll(() => page.getByTestId('detail-status').textContent()).toBe('Confirmed');
    expect(await page.getByTestId('detail-paid').textContent()).toBe(usd(paying.total));
    expect(await page.getByTestId('detail-due').textContent()).toBe(usd(0));
    expect(await page.getByTestId('detail-deadline').textContent()).toBe('—');
    const row = page.getByTestId('payments').locator('tbody tr').filter({ hasText: 'TRX-2040-77' });
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.any(String),
      'bank transfer',
      'TRX-2040-77',
      'succeeded',
      usd(paying.total),
      usd(0),
    ]);
    const after = await rental<Booking>(rig, `/rova-rental/v1/bookings/${paying.id}`);
    expect(after).toMatchObject({ status: 'confirmed', payment_status: 'paid', payment_deadline: null });
    expect(await mailsTo(paying.customer_email)).toEqual(['booking_created', 'payment_received', 'booking_confirmed']);
    // no longer "payment due": the filtered list does not find it
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Bookings' }).click();
    await page.getByRole('combobox', { name: /^Payment/ }).selectOption('due');
    await page.getByLabel('Search').fill(paying.reference);
    await page.getByText('No bookings match these filters.').waitFor();
    expectNoPageErrors(a);
    await a.context.close();
  });
});
