import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOBILE,
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  screenshot,
  startAdminRig,
  usd,
  type AdminRig,
} from './helpers.js';

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Page<T> {
  items: T[];
  total: number;
}
interface B {
  id: number;
  reference: string;
  status: string;
  total: number;
  tax: number;
  net_price: number;
  customer_id: number | null;
}

describe('admin bookings', () => {
  it('lists and filters what the API lists; the detail shows the price breakdown; a status move round-trips', async () => {
    const all = await rental<Page<B>>(rig, '/rova-rental/v1/bookings?per_page=20');
    const pending = await rental<Page<B>>(rig, '/rova-rental/v1/bookings?per_page=20&status=pending');
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/bookings' });
    const { page } = a;
    await page.getByText(`${all.total} total · page 1 of ${Math.ceil(all.total / 20)}`).waitFor();
    const refs = await page
      .getByRole('table', { name: 'Bookings' })
      .locator('tbody tr td:nth-child(1)')
      .allTextContents();
    expect(refs).toEqual(all.items.map((b) => b.reference));
    await expectAxeClean(page, 'bookings list');
    await screenshot(page, 'bookings');

    await page.getByLabel('Status').selectOption('pending');
    await page.getByText(`${pending.total} total`).waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('pending');
    // The URL holds the filter: a reload shows the same view.
    await page.reload();
    await page.getByText(`${pending.total} total`).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('pending');

    const confirmed = (await rental<Page<B>>(rig, '/rova-rental/v1/bookings?per_page=1&status=confirmed')).items[0]!;
    await page.goto(`${rig.shop.origin}/admin/bookings/${confirmed.id}`);
    await page.getByRole('heading', { name: `Booking ${confirmed.reference}` }).waitFor();
    const price = await page
      .getByTestId('price-breakdown')
      .locator('tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent]),
      );
    expect(price).toContainEqual(['Total', usd(confirmed.total)]);
    expect(price).toContainEqual(['Tax', usd(confirmed.tax)]);
    expect(price).toContainEqual(['Net price', usd(confirmed.net_price)]);
    await expectAxeClean(page, 'booking detail');
    await screenshot(page, 'booking-detail');

    await page.getByRole('button', { name: 'Mark In Progress' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Mark In Progress' }).click();
    await expect.poll(() => page.getByTestId('detail-status').textContent()).toBe('In Progress');
    expect((await rental<B>(rig, `/rova-rental/v1/bookings/${confirmed.id}`)).status).toBe('in_progress');
    // A move the machine refuses is not offered: in_progress → pending.
    expect(await page.getByRole('button', { name: 'Mark Pending' }).count()).toBe(0);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('creates a booking with the customer and the vehicle chosen by name (keyboard in the pickers); a server refusal appears in the form', async () => {
    const customer = (await rental<Page<{ id: number; name: string }>>(rig, '/rova-rental/v1/customers?per_page=1'))
      .items[0]!;
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: `/bookings/new?customer_id=${customer.id}` });
    const { page } = a;
    await page.getByRole('heading', { name: 'New booking' }).waitFor();
    // no id to type: the prefilled customer shows by name
    expect(await page.getByLabel('Customer ID').count()).toBe(0);
    const cust = page.getByRole('combobox', { name: 'Customer' });
    await expect.poll(() => cust.inputValue()).toBe(customer.name);

    // the vehicle: typed, the API's search results listed, the wanted one reached with the arrow keys and Enter
    const target = (
      await rental<Page<{ id: number; name: string }>>(rig, '/rova-rental/v1/vehicles?per_page=20&status=active')
    ).items.at(-1)!;
    const q = target.name.split(' ')[0]!;
    const found = (
      await rental<Page<{ id: number; name: string }>>(
        rig,
        `/rova-rental/v1/vehicles?per_page=10&search=${encodeURIComponent(q)}`,
      )
    ).items;
    const at = found.findIndex((v) => v.id === target.id);
    expect(at).toBeGreaterThanOrEqual(0);
    const veh = page.getByRole('combobox', { name: 'Vehicle' });
    await veh.fill(q);
    const list = page.getByRole('listbox', { name: 'Vehicle' });
    await expect
      .poll(() => list.getByRole('option').locator('span:first-child').allTextContents())
      .toEqual(found.map((v) => v.name));
    expect(await veh.getAttribute('aria-expanded')).toBe('true');
    for (let i = 0; i < at; i++) await veh.press('ArrowDown');
    const active = await veh.getAttribute('aria-activedescendant');
    expect(active).toBe(await list.getByRole('option').nth(at).getAttribute('id'));
    expect(await list.getByRole('option').nth(at).getAttribute('aria-selected')).toBe('true');
    await veh.press('Enter');
    await expect.poll(() => veh.getAttribute('aria-expanded')).toBe('false');
    expect(await veh.inputValue()).toBe(target.name);
    // Escape closes an open list and keeps the choice
    await veh.press('ArrowDown');
    await expect.poll(() => veh.getAttribute('aria-expanded')).toBe('true');
    await veh.press('Escape');
    await expect.poll(() => veh.getAttribute('aria-expanded')).toBe('false');
    expect(await veh.inputValue()).toBe(target.name);
    await expectAxeClean(page, 'new booking');

    // Return before pick-up: the server says why.
    await page.getByLabel('Pick-up date').fill('2031-06-10');
    await page.getByLabel('Return date').fill('2031-06-05');
    await page.getByRole('button', { name: 'Create booking' }).click();
    await page.getByRole('alert').or(page.locator('[aria-invalid="true"]')).first().waitFor();
    await page.getByLabel('Return date').fill('2031-06-14');
    await page.getByRole('button', { name: 'Create booking' }).click();
    await page.getByRole('heading', { name: /^Booking / }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const created = await rental<B & { vehicle_id: number }>(rig, `/rova-rental/v1/bookings/${id}`);
    expect(created.customer_id).toBe(customer.id);
    expect(created.vehicle_id).toBe(target.id);
    expect(created.status).toBe('confirmed');
    await page.getByRole('heading', { name: `Booking ${created.reference}` }).waitFor();
    expect(await page.getByTestId('detail-vehicle').textContent()).toBe(target.name);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('mobile: the list becomes cards and stays accessible', async () => {
    const all = await rental<Page<B>>(rig, '/rova-rental/v1/bookings?per_page=20');
    const a = await openAdmin(rig, MOBILE);
    await loginAs(rig, a, { path: '/bookings' });
    const { page } = a;
    await page.getByText(`${all.total} total`).waitFor();
    expect(await page.getByRole('table', { name: 'Bookings' }).isVisible()).toBe(false);
    const cards = page.getByRole('list', { name: 'Bookings' }).locator(':scope > li');
    expect(await cards.count()).toBe(all.items.length);
    expect(await cards.first().textContent()).toContain(all.items[0]!.reference);
    await expectAxeClean(page, 'bookings mobile');
    await screenshot(page, 'bookings-mobile');
    await a.context.close();
  });
});
