import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetRange } from '../../../admin/src/lib/dates.js';
import {
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

interface Revenue {
  start_date: string;
  end_date: string;
  series: { date: string; revenue: number; bookings: number; cancelled: number }[];
}

describe('admin reports', () => {
  it('presets give the API’s range; every tab shows the API’s numbers; the CSV is what the table shows', async () => {
    const overview = await rental<{
      start_date: string;
      end_date: string;
      revenue: { total: number };
      bookings: { total: number };
    }>(rig, '/rova-rental/v1/reports/overview');
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/reports' });
    const { page } = a;
    // Default = last 30 days ending today (store time zone UTC here), as the API's own default.
    await expect
      .poll(() => page.getByTestId('range').textContent())
      .toBe(`${overview.start_date} – ${overview.end_date} (UTC)`);
    const table = page.getByTestId('report-table');
    const row = (metric: string) =>
      table
        .locator('tr', { has: page.getByText(metric, { exact: true }) })
        .locator('td')
        .nth(1)
        .textContent();
    await expect.poll(() => row('Revenue')).toBe(usd(overview.revenue.total));
    expect(await row('Bookings')).toBe(String(overview.bookings.total));
    await expectAxeClean(page, 'reports overview');
    await screenshot(page, 'reports');

    await page.getByLabel('Range', { exact: true }).selectOption('7d');
    const r7 = presetRange('7d', new Date(), 'UTC');
    await expect.poll(() => page.getByTestId('range').textContent()).toBe(`${r7.start} – ${r7.end} (UTC)`);
    expect(new URL(page.url()).searchParams.get('preset')).toBe('7d');
    await page.getByRole('tab', { name: 'Revenue' }).click();
    const revenue = await rental<Revenue>(
      rig,
      `/rova-rental/v1/reports/revenue?start_date=${r7.start}&end_date=${r7.end}`,
    );
    await expect.poll(() => table.locator('tbody tr').count()).toBe(revenue.series.length);
    const cells = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
    expect(cells).toEqual(revenue.series.map((s) => [s.date, usd(s.revenue), String(s.bookings), usd(s.cancelled)]));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`rova-report-revenue-${r7.start}-${r7.end}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toBe(
      [
        'Date,Revenue,Bookings,Cancelled value',
        ...revenue.series.map((s) => `${s.date},${s.revenue},${s.bookings},${s.cancelled}`),
      ].join('\r\n') + '\r\n',
    );
    await expectAxeClean(page, 'reports revenue');

    for (const [tab, path, count] of [
      ['Bookings', 'bookings', (d: Record<string, unknown[]>) => d.status_distribution!.length],
      ['Vehicles', 'vehicles', (d: Record<string, unknown[]>) => d.top_vehicles!.length],
      ['Customers', 'customers', (d: Record<string, unknown[]>) => d.top_customers!.length],
    ] as const) {
      const d = await rental<Record<string, unknown[]>>(
        rig,
        `/rova-rental/v1/reports/${path}?start_date=${r7.start}&end_date=${r7.end}`,
      );
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tab', { name: tab, selected: true }).waitFor();
      const n = count(d);
      await expect.poll(() => table.locator('tbody tr').count()).toBe(Math.max(1, n));
      await expectAxeClean(page, `reports ${path}`);
    }

    // A custom range stays in the URL.
    await page.getByLabel('From', { exact: true }).fill('2026-01-01');
    await expect.poll(() => new URL(page.url()).searchParams.get('start')).toBe('2026-01-01');
    expect(new URL(page.url()).searchParams.get('preset')).toBeNull();
    expectNoPageErrors(a);
    await a.context.close();
  });
});
