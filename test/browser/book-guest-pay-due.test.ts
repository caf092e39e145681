import { describe, expect, it } from 'vitest';
import { verifyIntegrity } from '../../src/modules/rental/integrity/service.js';
import { expectAmountDue, payTheRestByCard } from './book-account-steps.js';
import { bookViaApi, guestPass } from './book-api.js';
import { ACCOUNT, expectAxeClean, SIZES } from './book-helpers.js';
import { useStripeShop } from './book-stripe-rig.js';

// "Pay the rest" without an account: a guest's card booking (booked with the mailed code) that the operator
// lengthened owes the difference; the amount-due mail's "manage" link opens the booking on the account page without
// signing in, shows what was paid and what is due, and the guest pays the rest by card (the Stripe.js stand-in
// against the local Stripe-speaking server, which sends the signed webhook as Stripe does): paid in full.

const rig = useStripeShop({ key: 'rovaGuestPayDue123', webhookSecret: 'whsec_rovaGuestPayDueSecret' });
const { open, api } = rig;
const { call, mail } = api;

/** The two widths, each with the year its booking is in. */
const WIDTHS = SIZES.map(([name, width, height], i): [string, number, number, number] => [
  name,
  width,
  height,
  2031 + i,
]);

describe('guest manage link: pay the rest of a booking whose price went up', () => {
  it.each(WIDTHS)(
    '%s: the amount-due mail’s manage link shows paid and due → "Pay the rest" → card → paid in full (axe clean)',
    async (_n, width, height, year) => {
      // a guest's 3-day card booking, paid (Stripe's webhook), then lengthened to 5 days by the operator
      const email = `guest-pays-${width}-${Date.now()}@example.test`;
      const pass = await guestPass(api, email, 'Gül Gast');
      const b = await bookViaApi(
        api,
        { guestPass: pass },
        { pickup_date: `${year}-04-02`, return_date: `${year}-04-05`, payment_method: 'stripe' },
      );
      const first = await rig.paidByWebhook(b.id);
      const longer = await call<{ data: { total: number; payment_status: string } }>(
        'PUT',
        `/rova-rental/v1/bookings/${b.id}`,
        { admin: true, status: 200, body: { return_date: `${year}-04-07` } },
      );
      expect(longer.data.payment_status).toBe('partially_paid');
      const due = Math.round((longer.data.total - b.total) * 100) / 100; // money in cents, not float noise
      expect(due).toBeGreaterThan(0);

      // the amount-due mail carries the manage link: the guest opens it
      const dueMail = await mail(email, 'amount_due');
      expect(dueMail.text).toContain(`Amount due: ${due.toFixed(2)} ${b.currency}`);
      const link = new URL(/Manage your booking without signing in: (\S+)/.exec(dueMail.text)![1]!);
      const { page, events, violations } = await open(link.pathname + link.search, { viewport: { width, height } });
      const w = page.locator(ACCOUNT);
      await w.locator('h2', { hasText: `Booking ${b.reference}` }).waitFor();
      expect(await w.locator('nav.tabs').count()).toBe(0);
      const payRest = await expectAmountDue(
        page,
        w,
        b,
        { due, total: longer.data.total },
        'manage: booking with an amount due',
      );

      const asking = page.waitForResponse((r) => r.url().includes('/rova-rental/v2/guest/manage/pay-due'));
      await payRest.click();
      const asked = await asking;
      expect(asked.status()).toBe(200);
      // a retry after a lost answer must get the same intent: the widget keys the attempt
      expect(asked.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      await payTheRestByCard(page, w, b, due, 'manage: pay the rest');
      expect(await w.locator('button[data-f=pay-due]').count()).toBe(0);
      expect(await page.getByLabel('Card number').count()).toBe(0);
      await expectAxeClean(page, 'manage: paid in full');

      const after = await call<{ data: { payment_status: string; balance: { paid: number; due: number } } }>(
        'GET',
        '/rova-rental/v2/guest/manage/booking',
        { headers: { 'x-rova-manage-token': link.searchParams.get('rova_manage')! }, status: 200 },
      );
      expect(after.data).toMatchObject({ payment_status: 'paid', balance: { paid: longer.data.total, due: 0 } });
      const dueIntent = [...rig.fake.intents.values()].filter(
        (pi) => pi.metadata.booking_id === String(b.id) && pi.id !== first.id,
      );
      expect(dueIntent.map((pi) => [pi.amount, pi.status])).toEqual([[Math.round(due * 100), 'succeeded']]);
      expect((await events()).filter((e) => e.type === 'rova:paid').map((e) => e.detail)).toEqual([
        { id: b.id, reference: b.reference, total: due, currency: b.currency },
      ]);
      expect((await verifyIntegrity(rig.shop.t.platform.db)).findings).toEqual([]);
      expect(await violations()).toEqual([]);
    },
  );
});
