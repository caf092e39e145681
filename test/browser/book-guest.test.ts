import { describe, expect, it } from 'vitest';
import { breakdownCell } from './book-account-steps.js';
import { acceptTerms, ACCOUNT, expectAxeClean, fromHome, SIZES, WIDGET } from './book-helpers.js';
import { useBookShop } from './book-rig.js';
import { visitorAddress } from './harness.js';

// Booking without an account, in real Chromium against the real app with demo data: from / to the rental page, the
// guest form (name, e-mail, the mailed code), the booking; then the booking mail's "manage" link opens that booking on
// the account page without signing in, and the guest changes its dates and cancels it there.

const rig = useBookShop();
const { open } = rig;
const { mail } = rig.api;

describe('guest booking and the manage link', () => {
  it.each(SIZES)(
    '%s: from /, book as a guest with the mailed code; the mail’s manage link shows the booking, the guest changes its dates and cancels it (axe clean)',
    async (_n, width, height) => {
      const email = `guest-${width}-${Date.now()}@example.test`;
      const { page } = await fromHome(open, { width, height });
      const w = page.locator(WIDGET).first();
      await w.locator('button[data-f=search]').click();
      await w.locator('h2', { hasText: /vehicles available/ }).waitFor();
      await w.locator('button[data-f^=choose-]').first().click();
      await w.locator('button[data-f=continue]').click();
      await w.locator('h3', { hasText: 'Book as a guest' }).waitFor();
      await expectAxeClean(page, 'sign-in or guest');

      await w.getByLabel('Your name').fill('Gül Gast');
      await w.locator('input[name=guest-email]').fill(email);
      await w.locator('button[data-f=guest-send]').click();
      await w.locator('[data-f=guest-notice]', { hasText: `A code is on its way to ${email}.` }).waitFor();
      const code = /Your booking code: (\d{6})/.exec((await mail(email, 'guest_code')).subject)![1]!;
      // a wrong code first: the widget says so and lets the guest try again
      await w.getByLabel('Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
      await w.locator('button[data-f=guest-confirm]').click();
      await w.locator('[data-f=guest-error]', { hasText: 'The code is not right. 4 attempt(s) left.' }).waitFor();
      await expectAxeClean(page, 'code');
      await w.getByLabel('Code from the e-mail').fill(code);
      await w.locator('button[data-f=guest-confirm]').click();
      await w.locator('h2', { hasText: 'Your booking' }).waitFor();
      await acceptTerms(w);
      await w.locator('button[data-f=book]').click();
      await w.locator('h2', { hasText: 'Booking received' }).waitFor();
      const reference = (await w.locator('[data-reference]').textContent())!;
      expect(reference).toMatch(/^RB-/);

      // the booking mail carries the manage link: Rova's account page with the token
      const created = await mail(email, 'booking_created');
      // with the terms the guest accepted
      expect(created.text).toContain('Rental terms accepted: version 2026-11');
      const link = new URL(/Manage your booking without signing in: (\S+)/.exec(created.text)![1]!);
      expect(link.pathname).toBe('/account');
      expect(link.searchParams.get('rova_manage')).toMatch(new RegExp(`^${reference}\\.`));
      await page.goto(rig.shop.origin + link.pathname + link.search);
      const a = page.locator(ACCOUNT);
      await a.locator('h2', { hasText: `Booking ${reference}` }).waitFor();
      // the booking only: no account tabs, no sign-in
      expect(await a.locator('nav.tabs').count()).toBe(0);
      expect(await a.locator('input[name=password]').count()).toBe(0);
      await expectAxeClean(page, 'manage');

      // change dates through the link: two more days; pay at pick-up, so nothing to pay by card
      const token = link.searchParams.get('rova_manage')!;
      const dates = breakdownCell(page, a, 'Dates');
      const before = (await dates.textContent())!;
      await a.locator('button[data-f=change-dates]').click();
      await a.locator('h2', { hasText: `Change booking ${reference}` }).waitFor();
      const pickup = await page.getByLabel('Pick-up date').inputValue();
      const ret = new Date(`${await page.getByLabel('Return date').inputValue()}T00:00:00Z`);
      const newReturn = new Date(ret.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel('Return date').fill(newReturn);
      // the other vehicles of the category come from the public search, without signing in
      const search = page.waitForResponse((r) => r.url().includes('/rova-rental/v2/vehicles/search'));
      await a.locator('button[data-f=change-quote]').click();
      await a.locator('table.breakdown tr', { hasText: 'New total' }).waitFor();
      expect((await search).status()).toBe(200);
      expect(await a.locator('table.breakdown').textContent()).not.toContain('To pay');
      await expectAxeClean(page, 'manage: change dates');
      await a.locator('button[data-f=confirm-change]').click();
      await a.locator('p.notice', { hasText: 'Booking changed.' }).waitFor();
      await a.locator('h2', { hasText: `Booking ${reference}` }).waitFor();
      const shown = (await dates.textContent())!;
      expect(shown).not.toBe(before);
      expect(shown.split(' – ')[0]).toBe(before.split(' – ')[0]);
      expect(await a.locator('button[data-f=pay-due]').count()).toBe(0);
      const changed = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v2/guest/manage/booking`, {
        headers: { 'x-rova-manage-token': token, 'x-forwarded-for': visitorAddress() },
      });
      const view = (
        (await changed.json()) as { data: { pickup_at: string; return_at: string; payment_status: string } }
      ).data;
      expect(view.pickup_at.slice(0, 10)).toBe(pickup);
      expect(view.return_at.slice(0, 10)).toBe(newReturn);
      expect(view.payment_status).toBe('unpaid');

      await a.locator('button[data-f=cancel]').click();
      await a.locator('button[data-f=confirm-cancel]').click();
      await a.locator('p.notice', { hasText: 'Booking cancelled.' }).waitFor();
      await expectAxeClean(page, 'cancelled');
      expect(await a.locator('table.breakdown').textContent()).toContain('Cancelled');
      const after = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v2/guest/manage/booking`, {
        headers: { 'x-rova-manage-token': link.searchParams.get('rova_manage')!, 'x-forwarded-for': visitorAddress() },
      });
      expect(((await after.json()) as { data: { status: string } }).data.status).toBe('cancelled');
    },
  );
});
