import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VENDOR_LOGIN, DEMO_VENDOR_PASSWORD } from '../../../src/modules/rental/seed/marketplace.js';
import { addDays } from '../../../admin/src/lib/dates.js';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  screenshot,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

// Issue 35.5: the demo vendor Anatolia Cars blocks days of its Renault Clio (which has an upcoming confirmed rental,
// RB-MKT…NEXT, 12 days ahead) on the vehicle's calendar. What the calendar shows is compared with the vendor's API.
let rig: AdminRig;
let vendorKey = '';
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-vendor-calendar-'));
beforeAll(async () => {
  rig = await startAdminRig({ DATA_DIR: dataDir });
  const auth = rig.shop.t.platform.auth;
  const u = (await auth.findUser(DEMO_VENDOR_LOGIN))!;
  vendorKey = (await auth.createApiKey({ userId: u.id, scopes: ['read', 'write'] })).key;
});
afterAll(async () => {
  await rig?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function asVendor<T>(p: string): Promise<T> {
  const r = await rig.api<{ data: T }>(p, { headers: { 'x-rova-api-key': vendorKey } });
  if (r.status >= 300) throw new Error(`${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

interface Month {
  bookings: { reference: string; from: string; to: string }[];
  blocks: { id: number; from: string; to: string }[];
}
interface Block {
  id: number;
  from: string;
  to: string;
  reason: string;
  note: string;
}

describe('vendor portal: a vehicle calendar (issue 35.5)', () => {
  it('the vendor opens a vehicle, sees its booking, blocks days, sees them on the calendar, is told which booking a clash hits, removes the block', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/', login: DEMO_VENDOR_LOGIN, password: DEMO_VENDOR_PASSWORD });
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'My vehicles' }).click();
    await page.getByRole('heading', { level: 1, name: 'My vehicles' }).waitFor();
    const cars = await asVendor<{ items: { id: number; name: string }[] }>('/rova-rental/v1/vendor/vehicles');
    const clio = cars.items.find((v) => v.name.startsWith('Renault Clio'))!;
    await page.getByRole('button', { name: `Calendar of ${clio.name}` }).click();
    const panel = page.getByRole('dialog', { name: `${clio.name}: calendar` });
    const calendar = panel.getByTestId('vehicle-calendar');

    // the month on screen: the store's current month; step to the booking's month if it is the next one
    const shownMonth = async () => (await calendar.getAttribute('data-month'))!;
    await calendar.waitFor();
    const thisMonth = await shownMonth();
    const monthOf = async () =>
      asVendor<Month>(`/rova-rental/v1/vendor/vehicles/${clio.id}/calendar?month=${await shownMonth()}`);
    const NEXT = /^RB-MKT\d{3}NEXT$/;
    let month = await monthOf();
    if (!month.bookings.some((b) => NEXT.test(b.reference))) {
      await panel.getByRole('button', { name: 'Next month' }).click();
      await expect.poll(shownMonth).not.toBe(thisMonth);
      month = await monthOf();
    }
    const booking = month.bookings.find((b) => NEXT.test(b.reference))!;
    expect(booking).toBeDefined();
    const datesIn = (state: string) =>
      calendar.locator(`[data-state="${state}"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-date')));
    const span = (from: string, to: string, inMonth: string) => {
      const out: string[] = [];
      for (let d = from; d <= to; d = addDays(d, 1)) if (d.startsWith(inMonth)) out.push(d);
      return out;
    };
    const m = await shownMonth();
    // every day a booking of the month takes (the demo's past rentals too), each once, in order
    const booked = [...new Set(month.bookings.flatMap((b) => span(b.from, b.to, m)))].sort();
    expect(booked).toEqual(expect.arrayContaining(span(booking.from, booking.to, m)));
    await expect.poll(() => datesIn('booked')).toEqual(booked);
    expect(await datesIn('blocked')).toEqual([]);
    await expect
      .poll(() => calendar.locator(`[data-date="${booking.from}"]`).getAttribute('aria-label'))
      .toContain(`Booked (${booking.reference})`);
    await panel.getByRole('list', { name: 'Legend' }).getByText('Blocked').waitFor();

    // block two days right after the return (the day after it, so the buffer between rentals is kept)
    const from = addDays(booking.to, 2);
    const to = addDays(booking.to, 3);
    const form = panel.getByRole('form', { name: 'Block dates' });
    await form.getByLabel('From').fill(from);
    await form.getByLabel('To (included)').fill(to);
    await form.getByLabel('Reason').selectOption('own_use');
    await form.getByLabel('Note (optional)').fill('Family trip');
    await form.getByRole('button', { name: 'Block dates' }).click();
    await expect
      .poll(() => asVendor<Block[]>(`/rova-rental/v1/vendor/vehicles/${clio.id}/blocks`))
      .toMatchObject([{ from, to, reason: 'own_use', note: 'Family trip' }]);
    const [made] = await asVendor<Block[]>(`/rova-rental/v1/vendor/vehicles/${clio.id}/blocks`);
    if (!from.startsWith(m)) await panel.getByRole('button', { name: 'Next month' }).click();
    const m2 = await shownMonth();
    await expect.poll(() => datesIn('blocked')).toEqual(span(from, to, m2));
    expect(
      (await asVendor<Month>(`/rova-rental/v1/vendor/vehicles/${clio.id}/calendar?month=${m2}`)).blocks.map(
        (b) => b.id,
      ),
    ).toEqual([made!.id]);
    const item = panel.locator(`[data-block="${made!.id}"]`);
    await expect.poll(() => item.textContent()).toContain('Own use · Family trip');

    // blocking the booked days is refused, and the message names the booking
    await form.getByLabel('From').fill(booking.from);
    await form.getByLabel('To (included)').fill(booking.from);
    await form.getByRole('button', { name: 'Block dates' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain(`Booking ${booking.reference}`);
    expect(await asVendor<Block[]>(`/rova-rental/v1/vendor/vehicles/${clio.id}/blocks`)).toHaveLength(1);
    await expectAxeClean(page, 'vehicle calendar');
    await screenshot(page, 'vendor-portal-calendar');

    // remove the block: the days are free again
    await item.getByRole('button', { name: /^Remove block / }).click();
    const dlg = page.getByRole('alertdialog');
    await dlg.getByRole('button', { name: 'Remove' }).click();
    await dlg.waitFor({ state: 'detached' });
    await expect.poll(() => asVendor<Block[]>(`/rova-rental/v1/vendor/vehicles/${clio.id}/blocks`)).toEqual([]);
    await expect.poll(() => datesIn('blocked')).toEqual([]);
    await panel.getByText('No blocked days ahead.').waitFor();
    expectNoPageErrors(a);
    await a.context.close();
  });
});
