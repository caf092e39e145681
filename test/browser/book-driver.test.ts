import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAxeClean, fromHome, register, SIZES, visitors, WIDGET } from './book-helpers.js';
import {
  expectAxeClean as expectAdminAxeClean,
  loginAs,
  openAdmin,
  startAdminRig,
  type AdminRig,
} from './admin/helpers.js';

// Driver and terms (issue 36.4) as a visitor meets them: from / to the demo rental page, an SUV, the review step's
// driver form and terms box; an under-age driver is refused with the reason, a valid one books, and the admin's
// booking detail shows the driver.

let rig: AdminRig;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  rig = await startAdminRig();
  const saved = await rig.api('/rova-rental/v2/driver-settings', {
    method: 'PUT',
    body: JSON.stringify({ terms_text: 'Return the car with a full tank.', terms_version: 'T-1' }),
  });
  expect(saved.status).toBe(200);
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await rig?.close();
});

const open = visitors(() => ({ shop: rig.shop, browser: rig.browser, contexts }));

/** YYYY-MM-DD `years` before `iso` (same month and day). */
const yearsBefore = (iso: string, years: number) => `${Number(iso.slice(0, 4)) - years}${iso.slice(4)}`;

describe('driver and terms in the booking widget', () => {
  it.each(SIZES)(
    '%s: an under-age SUV driver is refused with the reason; a valid driver with the terms ticked books; the admin detail shows the driver',
    async (_n, width, height) => {
      const { page, events } = await fromHome(open, { width, height });
      const w = page.locator(WIDGET);
      await w.locator('button[data-f=search]').waitFor();
      // each width books its own week: the desktop run's booking holds the airport's SUV on the default dates
      const shift = (iso: string, days: number) =>
        new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
      const week = SIZES.findIndex(([, w2]) => w2 === width) * 7;
      const pickup = shift(await w.locator('input[name=pickup_date]').inputValue(), week);
      const back = shift(await w.locator('input[name=return_date]').inputValue(), week);
      await w.locator('input[name=pickup_date]').fill(pickup);
      await w.locator('input[name=return_date]').fill(back);
      // an airport desk: the review step asks for the flight
      await w.locator('select[name=location]').selectOption({ label: 'Istanbul Airport' });
      await w.locator('button[data-f=search]').click();
      await w.locator('ul.cards').waitFor();
      // the category filter offers the categories of the search: SUVs only
      await w.locator('select[name=category]').selectOption('suv');
      const suvs = page.waitForResponse(
        (r) => r.url().includes('/vehicles/search') && r.url().includes('category=suv'),
      );
      await w.locator('button[data-f=search]').click();
      await suvs;
      await w.locator('h2', { hasText: /vehicles available/ }).waitFor();
      await w.locator('ul.cards button').first().click();
      await w.locator('button[data-f=continue]').click();
      await register(w);
      await w.locator('h2', { hasText: 'Your booking' }).waitFor();
      // the terms, the cancellation policy and (an airport desk) the flight field
      await w.locator('input[data-f=terms-accept]').waitFor();
      expect(await w.locator('[data-f=terms-text]').textContent()).toBe('Return the car with a full tank.');
      expect(await w.locator('[data-f=cancel-policy]').textContent()).toBe(
        'Free cancellation until 24 hours before pick-up; after that 20% of what you paid is kept.',
      );
      await expectAxeClean(page, 'review with driver and terms');

      await w.getByLabel("Driver's full name").fill('Ada Lovelace');
      await w.getByLabel('Date of birth').fill(yearsBefore(pickup, 22));
      await w.getByLabel('Driving licence number').fill('B1234567');
      await w.getByLabel('Flight number (optional)').fill('TK1234');
      await w.getByLabel('I accept the rental terms (version T-1).').check();
      await w.locator('button[data-f=book]').click();
      await expect
        .poll(() => w.locator('[role=alert]').textContent())
        .toBe(
          'Something went wrong: The driver must be at least 25 for this vehicle (SUV); the driver is 22 on the pick-up date.',
        );
      expect((await events()).map((e) => e.type)).not.toContain('rova:booking-created');

      await w.getByLabel('Date of birth').fill('1990-05-05');
      // the terms box unticked again: refused before anything is sent
      await w.getByLabel('I accept the rental terms (version T-1).').uncheck();
      await w.locator('button[data-f=book]').click();
      await expect
        .poll(() => w.locator('[role=alert]').textContent())
        .toBe('Something went wrong: Tick the box to accept the rental terms.');
      await w.getByLabel('I accept the rental terms (version T-1).').check();
      await w.locator('button[data-f=book]').click();
      await w.locator('h2', { hasText: 'Booking received' }).waitFor();
      const created = (await events()).find((e) => e.type === 'rova:booking-created')?.detail as { id: number };
      expect(created.id).toBeGreaterThan(0);

      const a = await openAdmin(rig);
      contexts.push(a.context);
      await loginAs(rig, a, { path: `/bookings/${created.id}` });
      await a.page.getByTestId('detail-driver').waitFor();
      expect(await a.page.getByTestId('driver-name').textContent()).toBe('Ada Lovelace');
      expect(await a.page.getByTestId('driver-birth').textContent()).toBe('1990-05-05');
      expect(await a.page.getByTestId('driver-licence').textContent()).toBe('B1234567');
      expect(await a.page.getByTestId('driver-flight').textContent()).toBe('TK1234');
      expect(await a.page.getByTestId('driver-terms').textContent()).toMatch(/^Version T-1, /);
      await expectAdminAxeClean(a.page, 'booking detail with driver');
      expect(a.errors).toEqual([]);
    },
  );
});
