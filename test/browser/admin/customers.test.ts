import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  screenshot,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface C {
  id: number;
  name: string;
  email: string;
  bookings_count: number;
}
interface Page<T> {
  items: T[];
  total: number;
}

describe('admin customers', () => {
  it('lists, sorts and live-searches as the API does; the slide-over shows the customer’s bookings', async () => {
    const all = await rental<Page<C>>(rig, '/rova-rental/v1/customers?per_page=20&sort_by=created&sort_dir=desc');
    const byName = await rental<Page<C>>(rig, '/rova-rental/v1/customers?per_page=20&sort_by=name&sort_dir=asc');
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/customers' });
    const { page } = a;
    const table = page.getByRole('table', { name: 'Customers' });
    await page.getByText(`${all.total} total`).waitFor();
    expect(await table.locator('tbody tr td:nth-child(3)').allTextContents()).toEqual(all.items.map((c) => c.email));

    await table.getByRole('button', { name: /Name/ }).click();
    await expect
      .poll(() => table.locator('tbody tr td:nth-child(3)').allTextContents())
      .toEqual(byName.items.map((c) => c.email));
    expect(new URL(page.url()).searchParams.get('sort')).toBe('name');

    const term = all.items[0]!.name.split(' ')[0]!;
    const found = await rental<Page<C>>(
      rig,
      `/rova-rental/v1/customers?per_page=20&sort_by=name&sort_dir=asc&search=${encodeURIComponent(term)}`,
    );
    await page.getByLabel('Search by name, email or phone').fill(term);
    await page.getByText(`${found.total} total`).waitFor();
    await expect
      .poll(() => table.locator('tbody tr td:nth-child(3)').allTextContents())
      .toEqual(found.items.map((c) => c.email));
    expect(new URL(page.url()).searchParams.get('search')).toBe(term);

    const first = found.items[0]!;
    await table.locator('tbody tr').first().click();
    const detail = page.getByTestId('customer-detail');
    await detail.waitFor();
    expect(await detail.getByRole('heading').first().textContent()).toBe(first.name);
    expect(await page.getByTestId('customer-bookings-count').textContent()).toBe(String(first.bookings_count));
    expect(new URL(page.url()).searchParams.get('customer')).toBe(String(first.id));
    await expectAxeClean(page, 'customer slide-over');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await expectAxeClean(page, 'customers');
    await screenshot(page, 'customers');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('bulk deletes two customers after confirming; cancelling deletes nothing', async () => {
    const list = await rental<Page<C>>(rig, '/rova-rental/v1/customers?per_page=20&sort_by=created&sort_dir=desc');
    const [c1, c2] = list.items;
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/customers' });
    const { page } = a;
    await page.getByText(`${list.total} total`).waitFor();
    await page.getByLabel(`Select row ${c1!.id}`).check();
    await page.getByLabel(`Select row ${c2!.id}`).check();
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await rig.api(`/rova-rental/v1/customers/${c1!.id}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`${list.total - 2} total`).waitFor();
    expect((await rig.api(`/rova-rental/v1/customers/${c1!.id}`)).status).toBe(404);
    expect((await rig.api(`/rova-rental/v1/customers/${c2!.id}`)).status).toBe(404);
    expect(await page.getByRole('button', { name: 'Delete selected (0)' }).isDisabled()).toBe(true);
    await a.context.close();
  });
});
