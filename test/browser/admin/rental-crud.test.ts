import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminPage,
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  screenshot,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

// Vehicles, locations, transfer routes and pricing rules: one generic list + slide-over form + delete dialog.

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Page_<T> {
  data: { items: T[]; total: number };
}
type Row = { id: number } & Record<string, unknown>;

const totalText = async (page: Page, total: number) => {
  await page
    .getByText(new RegExp(`^${total} total`))
    .waitFor({ timeout: 10_000 })
    .catch(async (e: unknown) => {
      throw new Error(`${String(e)}\n--- page ---\n${await page.locator('body').innerText()}`);
    });
};
/** Logs in, then opens the screen (the scaffold's login lands on the first screen, not on `?next`). */
async function open(a: AdminPage, path: string, heading: string) {
  await loginAs(rig, a, { path });
  await a.page.goto(`${rig.shop.origin}/admin${path}`);
  await a.page.getByRole('heading', { level: 1, name: heading }).waitFor();
}
const tableNames = (page: Page, label: string) =>
  page.getByRole('table', { name: label }).locator('tbody tr td:first-child').allTextContents();

describe('admin rental CRUD screens', () => {
  it('vehicles: the API page, a status filter held in the URL, edit round-trip', async () => {
    const all = (await rig.api<Page_<Row>>('/rova-rental/v1/vehicles?per_page=20')).body.data;
    const active = (await rig.api<Page_<Row>>('/rova-rental/v1/vehicles?per_page=20&status=active')).body.data;
    expect(all.total).toBeGreaterThan(0);
    const a = await openAdmin(rig);
    await open(a, '/vehicles', 'Vehicles');
    const { page } = a;
    await totalText(page, all.total);
    expect(await tableNames(page, 'Vehicles')).toEqual(all.items.map((v) => String(v.name)));
    const first = all.items[0]!;
    const price = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(
      Number(first.price_per_day),
    );
    await expect
      .poll(() => page.getByRole('table', { name: 'Vehicles' }).locator('tbody tr').first().textContent())
      .toContain(price.replace(/\u00a0/g, ' ').slice(1));

    await page.getByLabel('Status').selectOption('active');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('active');
    await totalText(page, active.total);

    await page.getByRole('button', { name: `Edit ${String(first.name)}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Brand').fill('Rova E2E');
    await expectAxeClean(page, 'vehicle form');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await rig.api<{ data: Row }>(`/rova-rental/v1/vehicles/${first.id}`)).body.data.brand)
      .toBe('Rova E2E');

    // A field the API refuses is a red message on that field (the API's own words for it), never a success toast.
    const refused = await rig.api<{ success: boolean; details: { params: Record<string, string> } }>(
      '/rova-rental/v1/vehicles',
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Bad price', price_per_day: -5, status: 'active', service_type: 'rental' }),
      },
    );
    expect(refused.status).toBe(400);
    const why = refused.body.details.params.price_per_day;
    expect(why).toBeTruthy();
    await page.getByRole('button', { name: 'New vehicle' }).click();
    await dialog.getByLabel('Name').fill('Bad price');
    const priceInput = dialog.getByLabel('Price per day');
    await priceInput.fill('-5');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => priceInput.getAttribute('aria-invalid')).toBe('true');
    const message = dialog.locator(`[id="${(await priceInput.getAttribute('aria-describedby'))!}"]`);
    expect(await message.textContent()).toBe(why);
    expect(await message.getAttribute('class')).toContain('text-red-700');
    expect(await page.getByText(/^Vehicle created$/).count()).toBe(0);
    await page.keyboard.press('Escape');

    await expectAxeClean(page, 'vehicles');
    await screenshot(page, 'vehicles');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('locations: create one, see it listed, delete it after confirming', async () => {
    const before = (await rig.api<Page_<Row>>('/rova-rental/v1/locations?per_page=20')).body.data;
    const a = await openAdmin(rig);
    await open(a, '/locations', 'Locations');
    const { page } = a;
    await totalText(page, before.total);
    expect(await tableNames(page, 'Locations')).toEqual(before.items.map((l) => String(l.name)));

    await page.getByRole('button', { name: 'New location' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('E2E Harbour Desk');
    await dialog.getByLabel('City').fill('Zadar');
    await dialog.getByLabel('Type').selectOption('port');
    await dialog.getByLabel('Priority').fill('99');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await totalText(page, before.total + 1);
    const after = (await rig.api<Page_<Row>>('/rova-rental/v1/locations?per_page=100')).body.data;
    const created = after.items.find((l) => l.name === 'E2E Harbour Desk');
    expect(created).toMatchObject({ city: 'Zadar', type: 'port', priority: 99 });
    await page.getByRole('cell', { name: 'E2E Harbour Desk', exact: true }).waitFor();

    await page.getByRole('searchbox', { name: 'City' }).fill('Zadar');
    await page.getByRole('searchbox', { name: 'City' }).press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('city')).toBe('Zadar');
    await totalText(page, after.items.filter((l) => String(l.city).toLowerCase() === 'zadar').length);

    await expectAxeClean(page, 'locations');
    await screenshot(page, 'locations');
    await page.getByRole('button', { name: 'Delete E2E Harbour Desk' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('cell', { name: 'E2E Harbour Desk', exact: true }).waitFor({ state: 'detached' });
    const gone = (await rig.api<Page_<Row>>('/rova-rental/v1/locations?per_page=100')).body.data;
    expect(gone.items.some((l) => l.name === 'E2E Harbour Desk')).toBe(false);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('transfer routes and pricing rules: the API rows, a create round-trip each', async () => {
    const routes = (await rig.api<Page_<Row>>('/rova-rental/v1/transfer-routes?per_page=20')).body.data;
    const a = await openAdmin(rig);
    await open(a, '/transfer-routes', 'Transfer routes');
    const { page } = a;
    await totalText(page, routes.total);
    expect(await tableNames(page, 'Transfer routes')).toEqual(
      routes.items.map((r) => `${String(r.origin)} → ${String(r.destination)}`),
    );
    await page.getByRole('button', { name: 'New route' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Origin', { exact: true }).fill('E2E Airport');
    await dialog.getByLabel('Destination', { exact: true }).fill('E2E Old Town');
    await dialog.getByLabel('Base price').fill('42.5');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await totalText(page, routes.total + 1);
    const routesAfter = (await rig.api<Page_<Row>>('/rova-rental/v1/transfer-routes?per_page=100')).body.data;
    expect(routesAfter.items.find((r) => r.origin === 'E2E Airport')).toMatchObject({
      destination: 'E2E Old Town',
      base_price: 42.5,
      pricing: 'fixed',
    });
    await expectAxeClean(page, 'transfer routes');
    await screenshot(page, 'transfer-routes');

    const rules = (await rig.api<Page_<Row>>('/rova-rental/v1/pricing-rules?per_page=20')).body.data;
    await page.getByRole('link', { name: 'Pricing rules' }).first().click();
    await totalText(page, rules.total);
    expect(await tableNames(page, 'Pricing rules')).toEqual(rules.items.map((r) => String(r.name)));
    await page.getByRole('button', { name: 'New rule' }).click();
    await dialog.getByLabel('Name').fill('E2E weekend');
    await dialog.getByLabel('Kind').selectOption('weekend');
    await dialog.getByLabel('Multiplier').fill('1.15');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await totalText(page, rules.total + 1);
    const rulesAfter = (await rig.api<Page_<Row>>('/rova-rental/v1/pricing-rules?per_page=100&kind=weekend')).body.data;
    expect(rulesAfter.items.find((r) => r.name === 'E2E weekend')).toMatchObject({ kind: 'weekend', multiplier: 1.15 });
    await expectAxeClean(page, 'pricing rules');
    await screenshot(page, 'pricing-rules');
    expectNoPageErrors(a);
    await a.context.close();
  });
});
