import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { rows } from '../../src/platform/db/types.js';
import { breakdownCell, money, payTheRestByCard, signInFromHome } from './book-account-steps.js';
import { bookViaApi, signedUpCustomer } from './book-api.js';
import { expectAxeClean, SIZES } from './book-helpers.js';
import { useStripeShop } from './book-stripe-rig.js';

// "Change dates" (issue 36.6): a customer whose card booking is paid moves it to other, longer dates from their
// account — reached by clicking from the home page — sees the price difference before confirming, confirms, and pays
// the difference by card (the Stripe.js stand-in against the local Stripe-speaking server and its signed webhook).

const rig = useStripeShop({ key: 'rovaChangeDates123', webhookSecret: 'whsec_rovaChangeDatesSecret' });
const { open, api } = rig;
const { call } = api;

describe('booking widget, account: change the dates of a paid booking', () => {
  it.each(SIZES)(
    '%s: from / to the account → booking → "Change dates" → new price and difference → confirm → pay the difference by card; axe on every step',
    async (_n, width, height) => {
      // a customer with a card booking of 3 days, paid (Stripe's webhook)
      const { customer: c, token } = await signedUpCustomer(api);
      const b = await bookViaApi(
        api,
        { token },
        {
          pickup_date: '2029-06-04',
          return_date: '2029-06-07',
          pickup_time: '10:00',
          return_time: '10:00',
          payment_method: 'stripe',
        },
      );
      await rig.paidByWebhook(b.id);

      // the customer, in the browser: from the home page through the links to the account
      const { page, events, violations } = await open('/', { viewport: { width, height } });
      const w = await signInFromHome(page, c);
      await w.locator('h2', { hasText: 'My bookings' }).waitFor();
      await w.locator(`button[data-f=booking-${b.id}]`).click();
      await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();

      await w.locator('button[data-f=change-dates]').click();
      await w.locator('h2', { hasText: `Change booking ${b.reference}` }).waitFor();
      expect(await page.getByLabel('Pick-up date').inputValue()).toBe('2029-06-04');
      expect(await page.getByLabel('Return date').inputValue()).toBe('2029-06-07');
      await expectAxeClean(page, 'change dates');
      // two more days
      await page.getByLabel('Return date').fill('2029-06-09');
      await w.locator('button[data-f=change-quote]').click();
      const cell = (label: string) => breakdownCell(page, w, label);
      await cell('New total').waitFor();
      // what the server quotes for the same change (nothing written by either quote)
      const quoted = await call<{ data: { total: number; previous_total: number; difference: number; due: number } }>(
        'POST',
        `/rova-rental/v2/my/bookings/${b.id}/change/quote`,
        {
          token,
          status: 200,
          body: { pickup_date: '2029-06-04', pickup_time: '10:00', return_date: '2029-06-09', return_time: '10:00' },
        },
      );
      expect(quoted.data.previous_total).toBe(b.total);
      expect(quoted.data.due).toBeGreaterThan(0);
      expect(await cell('Previous total').textContent()).toBe(money(b.total, b.currency));
      expect(await cell('New total').textContent()).toBe(money(quoted.data.total, b.currency));
      expect(await cell('Difference').textContent()).toBe(money(quoted.data.difference, b.currency));
      expect(await cell('To pay').textContent()).toBe(money(quoted.data.due, b.currency));
      await expectAxeClean(page, 'change dates with the price');

      await w.locator('button[data-f=confirm-change]').click();
      // the difference is due: straight on to paying it by card
      await payTheRestByCard(page, w, b, quoted.data.due, 'pay the difference');

      const after = await call<{
        data: {
          pickup_at: string;
          return_at: string;
          total: number;
          payment_status: string;
          balance: { paid: number; due: number };
        };
      }>('GET', `/rova-rental/v2/my/bookings/${b.id}`, { token, status: 200 });
      expect(after.data).toMatchObject({
        return_at: '2029-06-09T10:00:00.000Z',
        total: quoted.data.total,
        payment_status: 'paid',
        balance: { paid: quoted.data.total, due: 0 },
      });
      const [mail] = await rows<{ subject: string }>(
        rig.shop.t.platform.db,
        sql`SELECT subject FROM rova_mail_outbox WHERE to_address = ${c.email} AND template = 'booking_changed'`,
      );
      expect(mail!.subject).toBe(`[Rova] Booking changed — ${b.reference}`);
      expect((await events()).filter((e) => e.type === 'rova:changed').map((e) => e.detail)).toEqual([
        { id: b.id, reference: b.reference, total: quoted.data.total, due: quoted.data.due, refund: 0 },
      ]);
      expect((await verifyIntegrity(rig.shop.t.platform.db)).findings).toEqual([]);
      expect(await violations()).toEqual([]);
    },
  );
});
