import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorAddress } from '../harness.js';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
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

interface Product {
  id: number;
  name: string;
  type: string;
  regular_price: string;
  sale_price: string;
}
interface Variation {
  id: number;
  regular_price: string;
  attributes: { option: string }[];
}

/** A wc/v3 list as the API gives it: the array and X-WP-Total. */
async function list<T>(p: string): Promise<{ items: T[]; total: number }> {
  const res = await fetch(`${rig.shop.origin}/wp-json${p}`, {
    headers: { 'x-rova-api-key': rig.shop.adminKey, 'x-forwarded-for': visitorAddress() },
  });
  expect(res.status).toBe(200);
  return { items: (await res.json()) as T[], total: Number(res.headers.get('x-wp-total')) };
}

describe('admin catalogue screen', () => {
  it('lists the products the API returns (total from X-WP-Total), searches, edits a price and a variation price', async () => {
    const all = await list<Product>('/wc/v3/products?per_page=20&page=1&orderby=title&order=asc&status=any');
    expect(all.total).toBeGreaterThan(0);
    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/catalogue' });
    await page.goto(`${rig.shop.origin}/admin/catalogue`);
    await page.getByRole('heading', { level: 1, name: 'Catalogue' }).waitFor();
    await page.getByText(new RegExp(`^${all.total} total`)).waitFor();
    const table = page.getByRole('table', { name: 'Products' });
    expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(all.items.map((p) => p.name));
    await expectAxeClean(page, 'catalogue');
    await screenshot(page, 'catalogue');

    // search: in the URL, and the API's count for it
    const found = await list<Product>(
      '/wc/v3/products?per_page=20&page=1&orderby=title&order=asc&status=any&search=mileage',
    );
    expect(found.total).toBeGreaterThan(0);
    await page.getByLabel('Search products').fill('mileage');
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('mileage');
    await page.getByText(new RegExp(`^${found.total} total`)).waitFor();
    expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(found.items.map((p) => p.name));

    // a variable product: its variations, one price edited
    const variable = found.items.find((p) => p.type === 'variable')!;
    const vars = await list<Variation>(`/wc/v3/products/${variable.id}/variations?per_page=100&status=any`);
    await page.getByRole('button', { name: `Edit ${variable.name}` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('product')).toBe(String(variable.id));
    const dlg = page.getByRole('dialog');
    const items = dlg.getByTestId('variations').locator('li');
    await expect.poll(() => items.count()).toBe(vars.items.length);
    const v = vars.items[0]!;
    const label = v.attributes.map((x) => x.option).join(' / ');
    const priceBox = dlg.getByLabel(`Regular price (${label})`);
    expect(await priceBox.inputValue()).toBe(v.regular_price);
    await priceBox.fill('27.50');
    await dlg
      .getByRole('form', { name: `Variation ${label}` })
      .getByRole('button', { name: 'Save' })
      .click();
    await expect
      .poll(
        async () => (await rig.api<Variation>(`/wc/v3/products/${variable.id}/variations/${v.id}`)).body.regular_price,
      )
      .toBe('27.50');
    await expectAxeClean(page, 'product with variations');
    await page.keyboard.press('Escape');
    await dlg.waitFor({ state: 'detached' });
    await expect.poll(() => new URL(page.url()).searchParams.get('product')).toBeNull();

    // a simple product: price edited through the form, checked through the API
    await page.getByLabel('Search products').fill('');
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBeNull();
    const simple = all.items.find((p) => p.type === 'simple' && p.sale_price === '')!;
    await page.getByRole('button', { name: `Edit ${simple.name}` }).click();
    const form = page.getByRole('dialog').getByRole('form', { name: 'Product' });
    expect(await form.getByLabel('Regular price').inputValue()).toBe(simple.regular_price);
    await form.getByLabel('Regular price').fill('abc');
    await form.getByRole('button', { name: 'Save product' }).click();
    await form.getByText('A price like 19.90').waitFor();
    await form.getByLabel('Regular price').fill('123.45');
    await form.getByRole('button', { name: 'Save product' }).click();
    await expect
      .poll(async () => (await rig.api<Product>(`/wc/v3/products/${simple.id}`)).body.regular_price)
      .toBe('123.45');
    await page.keyboard.press('Escape');
    await expect
      .poll(() => table.locator('tbody tr', { hasText: simple.name }).first().locator('td:nth-child(4)').textContent())
      .toContain('123.45');
    expectNoPageErrors(a);
    await a.context.close();
  });
});
