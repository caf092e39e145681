import { describe, expect, it } from 'vitest';
import { acceptTerms, expectAxeClean, fromHome, register, SIZES, WIDGET } from './book-helpers.js';
import { useBookShop } from './book-rig.js';
import { visitorAddress } from './harness.js';

// Extras on the check step (issue 36.3), in real Chromium against the real app with demo data (Child seat 5.00 per
// day up to 3, Additional driver 25.00 per booking, Full insurance 12.00 per day), reached by clicking from `/`.

const rig = useBookShop();
const { open } = rig;

interface CheckAnswer {
  total: number;
  tax: number;
  tax_rate: number;
  price_per_day: number;
  days: number;
  breakdown: {
    base: number;
    rules: { name: string; kind: string; amount: number; days: number | null }[];
    addons: { code: string; name: string; quantity: number; total: number }[];
  };
}

async function apiCheck(body: string): Promise<CheckAnswer> {
  const res = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v2/booking/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': visitorAddress() },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: CheckAnswer }).data;
}

const cents = (x: number) => Math.round(x * 100);

describe('booking widget: extras', () => {
  it.each(SIZES)(
    '%s: choosing extras changes the total; the breakdown lines equal the API’s and sum to it; the booking stores them as lines',
    async (_n, width, height) => {
      const money = (x: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'USD' }).format(x);
      const { page, events } = await fromHome(open, { width, height });
      const w = page.locator(WIDGET);
      await w.locator('button[data-f=search]').click();
      const card = w.locator('ul.cards li').first();
      await card.waitFor();
      await card.locator('button').click();
      const extras = w.locator('fieldset[data-f=extras]');
      await extras.waitFor();
      await expectAxeClean(page, `${width}px: detail with extras`);
      expect(await extras.locator('li').allTextContents()).toEqual([
        expect.stringMatching(/^Child seat.*\$5\.00 per day · up to 3/),
        expect.stringMatching(/^Additional driver.*\$25\.00 per booking$/),
        expect.stringMatching(/^Full insurance.*\$12\.00 per day$/),
      ]);
      const total = () => w.locator('table.breakdown tr.total td').textContent();
      const before = await total();

      // two child seats with the stepper (each click asks the API again), then the additional driver
      const more = w.getByRole('button', { name: 'Child seat: one more' });
      let checked = page.waitForRequest((r) => r.url().endsWith('/booking/check') && r.method() === 'POST');
      await more.click();
      await w.locator('output[data-f=extra-child_seat-qty]', { hasText: '1' }).waitFor();
      await w.locator('table.breakdown th', { hasText: /^Child seat$/ }).waitFor();
      await checked;
      await more.click();
      await w.locator('table.breakdown th', { hasText: 'Child seat × 2' }).waitFor();
      checked = page.waitForRequest((r) => r.url().endsWith('/booking/check') && r.method() === 'POST');
      await w.getByRole('checkbox', { name: 'Additional driver' }).check();
      const body = (await checked).postData()!;
      await w.locator('table.breakdown th', { hasText: 'Additional driver' }).waitFor();
      expect(JSON.parse(body).addons).toEqual([
        { code: 'child_seat', quantity: 2 },
        { code: 'extra_driver', quantity: 1 },
      ]);
      expect(await total()).not.toBe(before);

      // the lines shown are the API's answer to the same body, and they sum to its total
      const c = await apiCheck(body);
      const rent = c.breakdown.rules.filter(
        (r) => ['season', 'weekend', 'duration'].includes(r.kind) && r.amount !== 0,
      );
      expect(c.breakdown.addons.map((a) => [a.code, a.quantity])).toEqual([
        ['child_seat', 2],
        ['extra_driver', 1],
      ]);
      expect(c.breakdown.addons[0]!.total).toBe(5 * 2 * c.days);
      const expected = [
        [`${c.days === 1 ? '1 day' : `${c.days} days`} × ${money(c.price_per_day)}`, money(c.breakdown.base)],
        ...rent.map((r) => [
          r.days ? `${r.name} (${r.days === 1 ? '1 day' : `${r.days} days`})` : r.name,
          money(r.amount),
        ]),
        ['Child seat × 2', money(c.breakdown.addons[0]!.total)],
        ['Additional driver', money(25)],
        ...(c.tax ? [[`Tax (${c.tax_rate} %)`, money(c.tax)]] : []),
        ['Total', money(c.total)],
      ];
      const rows = () =>
        w
          .locator('table.breakdown tr')
          .evaluateAll((trs) =>
            trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]),
          );
      expect(await rows()).toEqual(expected);
      const sum =
        cents(c.breakdown.base) +
        rent.reduce((s, r) => s + cents(r.amount), 0) +
        c.breakdown.addons.reduce((s, a) => s + cents(a.total), 0) +
        cents(c.tax);
      expect(sum).toBe(cents(c.total));
      await expectAxeClean(page, `${width}px: extras chosen`);

      // carried to the review and the booking
      await w.locator('button[data-f=continue]').click();
      await register(w);
      await w.locator('h2', { hasText: 'Your booking' }).waitFor();
      expect(await rows()).toEqual(expected);
      await acceptTerms(w);
      await w.locator('button[data-f=book]').click();
      await w.locator('[data-f=extras-taken]').waitFor();
      expect(await w.locator('[data-f=extras-taken] li').allTextContents()).toEqual([
        `Child seat × 2: ${money(c.breakdown.addons[0]!.total)}`,
        `Additional driver: ${money(25)}`,
      ]);
      await expectAxeClean(page, `${width}px: confirmation`);
      const created = (await events()).find((e) => e.type === 'rova:booking-created')!;
      const res = await fetch(`${rig.shop.origin}/wp-json/rova-rental/v1/bookings/${String(created.detail.id)}`, {
        headers: { 'x-rova-api-key': rig.shop.adminKey, 'x-forwarded-for': visitorAddress() },
      });
      const booking = ((await res.json()) as { data: { total: number; lines: Record<string, unknown>[] } }).data;
      expect(booking.total).toBe(c.total);
      expect(booking.lines.filter((l) => l.kind === 'addon')).toEqual([
        {
          kind: 'addon',
          code: 'child_seat',
          description: 'Child seat × 2',
          amount: c.breakdown.addons[0]!.total,
          quantity: 2,
        },
        { kind: 'addon', code: 'extra_driver', description: 'Additional driver', amount: 25, quantity: 1 },
      ]);
    },
  );
});
