import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorAddress } from '../harness.js';
import { expectAxeClean, expectNoPageErrors, loginAs, openAdmin, startAdminRig, type AdminRig } from './helpers.js';

// Issue 34 item 7: WooCommerce's stock fields (manage_stock, stock_quantity, backorders) in the admin app's catalogue —
// a Stock column in the list, and the product form that edits them, checked through the wc/v3 API.

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
  manage_stock: boolean;
  stock_quantity: number | null;
  backorders: string;
  stock_status: string;
}

const stockOf = async (id: number) => {
  const p = (await rig.api<Product>(`/wc/v3/products/${id}`)).body;
  return {
    manage_stock: p.manage_stock,
    stock_quantity: p.stock_quantity,
    backorders: p.backorders,
    stock_status: p.stock_status,
  };
};

describe('admin catalogue: stock', () => {
  it('a Stock column; manage stock, quantity and backorders edited by clicking, saved through wc/v3', async () => {
    const res = await fetch(`${rig.shop.origin}/wp-json/wc/v3/products?per_page=100&status=any`, {
      headers: { 'x-rova-api-key': rig.shop.adminKey, 'x-forwarded-for': visitorAddress() },
    });
    expect(res.status).toBe(200);
    const simple = ((await res.json()) as Product[]).find((p) => p.type === 'simple' && !p.manage_stock)!;
    expect(simple).toBeDefined();

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Catalogue', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Catalogue' }).waitFor();
    const table = page.getByRole('table', { name: 'Products' });
    await expect.poll(() => table.locator('thead th').allTextContents()).toContain('Stock');
    await page.getByLabel('Search products').fill(simple.name);
    await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(simple.name);
    const row = table.locator('tbody tr', { hasText: simple.name }).first();
    const stockCell = row.locator('td:nth-child(5)');
    const label: Record<string, string> = {
      instock: 'In stock',
      outofstock: 'Out of stock',
      onbackorder: 'On backorder',
    };
    await expect.poll(() => stockCell.textContent()).toBe(label[simple.stock_status]);

    // manage stock: 7 in stock, backorders allowed with a notice
    await row.getByRole('button', { name: `Edit ${simple.name}` }).click();
    const form = page.getByRole('dialog').getByRole('form', { name: 'Product' });
    const manage = form.getByLabel('Manage stock');
    expect(await manage.isChecked()).toBe(false);
    expect(await form.getByLabel('Stock quantity').count()).toBe(0);
    await manage.check();
    await form.getByLabel('Stock quantity').fill('seven');
    await form.getByRole('button', { name: 'Save product' }).click();
    await form.getByText('A whole number like 12').waitFor();
    await form.getByLabel('Stock quantity').fill('7');
    await form.getByLabel('Backorders').selectOption({ label: 'Allow, but notify the customer' });
    expect(await form.getByLabel('Stock status').isDisabled()).toBe(true);
    await expectAxeClean(page, 'product form with stock managed');
    await form.getByRole('button', { name: 'Save product' }).click();
    await expect
      .poll(() => stockOf(simple.id))
      .toEqual({ manage_stock: true, stock_quantity: 7, backorders: 'notify', stock_status: 'instock' });

    // none left: on backorder (the status follows the quantity and backorders, as WooCommerce derives it)
    await page.getByRole('dialog').getByLabel('Stock quantity').fill('0');
    await page.getByRole('dialog').getByRole('button', { name: 'Save product' }).click();
    await expect
      .poll(() => stockOf(simple.id))
      .toEqual({ manage_stock: true, stock_quantity: 0, backorders: 'notify', stock_status: 'onbackorder' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => stockCell.textContent()).toBe('On backorder (0)');

    // stock no longer managed: no quantity, no backorders, the status chosen by hand
    await row.getByRole('button', { name: `Edit ${simple.name}` }).click();
    const again = page.getByRole('dialog').getByRole('form', { name: 'Product' });
    expect(await again.getByLabel('Stock quantity').inputValue()).toBe('0');
    await again.getByLabel('Manage stock').uncheck();
    await again.getByLabel('Stock status').selectOption('outofstock');
    await again.getByRole('button', { name: 'Save product' }).click();
    await expect
      .poll(() => stockOf(simple.id))
      .toEqual({ manage_stock: false, stock_quantity: null, backorders: 'no', stock_status: 'outofstock' });
    await page.keyboard.press('Escape');
    await expect.poll(() => stockCell.textContent()).toBe('Out of stock');
    expectNoPageErrors(a);
    await a.context.close();
  });
});
