import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminPage, expectAxeClean, expectNoPageErrors, loginAs, openAdmin, startAdminRig, type AdminRig } from './helpers.js';

// The operator's daily fixes (issue 22, item 3), each driven the way a person would: clicking, typing into
// pickers, never typing ids or URLs after the login page.

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

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('operator fixes', () => {
  it('vendor tabs are routes: clicking each keeps the URL flat, marks the tab and shows its content', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Vendors' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vendors' }).waitFor();
    await expect.poll(() => pathOf(page)).toBe('/admin/vendors/applications');
    const tabs = page.getByRole('navigation', { name: 'Vendor sections' });
    const vendors = (await rig.api<Page_<unknown>>('/rova-rental/v1/vendor-management/vendors?status=all&per_page=20')).body.data;
    const payouts = (await rig.api<Page_<unknown>>('/rova-rental/v2/payouts?per_page=20')).body.data;
    const reports = (await rig.api<Page_<unknown>>('/rova-rental/v1/vendor-reports?per_page=20')).body.data;
    const apps = (await rig.api<Page_<unknown>>('/rova-rental/v1/vendor-management/applications?per_page=20')).body.data;
    // twice round, so a relative link would have grown the URL by now
    for (let round = 0; round < 2; round++) {
      for (const [tab, segment, table, total] of [
        ['Vendors', 'list', 'Vendors', vendors.total],
        ['Payouts', 'payouts', 'Payouts', payouts.total],
        ['Reports', 'reports', 'Vendor reports', reports.total],
        ['Applications', 'applications', 'Applications', apps.total],
      ] as const) {
        await tabs.getByRole('link', { name: tab, exact: true }).click();
        await expect.poll(() => pathOf(page)).toBe(`/admin/vendors/${segment}`);
        await page.getByRole('table', { name: table }).waitFor();
        await page.getByText(new RegExp(`^${total} total`)).waitFor();
        expect(await tabs.locator('[aria-current="page"]').allTextContents()).toEqual([tab]);
      }
    }
    await expectAxeClean(page, 'vendor tabs');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it("the app's own nonce refreshes (every load) write no audit row; the login does", async () => {
    const before = (await rig.api<{ id: number; route: string }[]>('/rova/v1/audit-log?per_page=100&route=auth')).body;
    const lastId = before[0]?.id ?? 0;
    const a = await openAdmin(rig);
    const { page } = a;
    let probes = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/wp-json/rova/v1/auth/nonce')) probes++;
    });
    await loginAs(rig, a);
    await page.reload();
    await page.locator('main#main').waitFor();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Bookings' }).click();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Bookings' }).waitFor();
    expect(probes).toBeGreaterThanOrEqual(3);
    const after = (await rig.api<{ id: number; route: string; method: string }[]>('/rova/v1/audit-log?per_page=100&route=auth')).body.filter((e) => e.id > lastId);
    expect(after.filter((e) => e.route.endsWith('/auth/nonce'))).toEqual([]);
    expect(after.map((e) => `${e.method} ${e.route}`)).toContain('POST /wp-json/rova/v1/auth/login');
    expectNoPageErrors(a);
    await a.context.close();
  });
});

export type { AdminPage };
