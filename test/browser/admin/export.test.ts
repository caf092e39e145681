import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

interface Preview {
  data: { count: number; columns: string[]; sample: Record<string, unknown>[] };
}
interface History {
  data: { items: { id: string; filename: string; records: number }[]; total: number };
}

describe('admin export screen', () => {
  it('live count and preview equal the API, filters in the URL, download lands in history, delete it', async () => {
    const all = (
      await rig.api<Preview>('/rova-rental/v1/admin/export/preview', {
        method: 'POST',
        body: JSON.stringify({ type: 'bookings' }),
      })
    ).body.data;
    const vehicles = (
      await rig.api<Preview>('/rova-rental/v1/admin/export/preview', {
        method: 'POST',
        body: JSON.stringify({ type: 'vehicles' }),
      })
    ).body.data;
    expect(all.count).toBeGreaterThan(0);

    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/export' });
    const { page } = a;
    await page.goto(`${rig.shop.origin}/admin/export`);
    await page.getByRole('heading', { level: 1, name: 'Export' }).waitFor();
    const count = page.getByTestId('export-count');
    const fmt = (n: number) => `${new Intl.NumberFormat('en-US').format(n)} records match`;
    await expect.poll(() => count.textContent()).toBe(fmt(all.count));
    const rows = page.getByRole('table', { name: 'Export preview' }).locator('tbody tr');
    expect(await rows.count()).toBe(all.sample.length);
    const firstCol = all.columns[0]!;
    expect(await rows.locator('td:first-child').allTextContents()).toEqual(
      all.sample.map((r) => String(r[firstCol] ?? '—')),
    );

    await page.getByLabel('Type').selectOption('vehicles');
    await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('vehicles');
    await expect.poll(() => count.textContent()).toBe(fmt(vehicles.count));

    const before = (await rig.api<History>('/rova-rental/v1/admin/export/history')).body.data.total;
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/vehicles.*\.csv$/);
    await expect
      .poll(async () => (await rig.api<History>('/rova-rental/v1/admin/export/history')).body.data.total)
      .toBe(before + 1);
    const latest = (await rig.api<History>('/rova-rental/v1/admin/export/history')).body.data.items[0]!;
    expect(latest.records).toBe(vehicles.count);
    const cell = page
      .getByRole('table', { name: 'Export history' })
      .getByRole('cell', { name: latest.filename, exact: true });
    await cell.waitFor();

    await expectAxeClean(page, 'export');
    await screenshot(page, 'export');
    await page.getByRole('button', { name: `Delete ${latest.filename}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await cell.waitFor({ state: 'detached' });
    expect((await rig.api<History>('/rova-rental/v1/admin/export/history')).body.data.total).toBe(before);
    expectNoPageErrors(a);
    await a.context.close();
  });
});
