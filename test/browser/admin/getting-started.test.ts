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

// A fresh installation (no demo data): the dashboard is a getting-started checklist, each step read from the API.
let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig({}, { demo: false });
});
afterAll(async () => {
  await rig?.close();
});

interface Page_ {
  items: { id: number; name: string }[];
  total: number;
}
const STEPS = ['currency', 'location', 'vehicle', 'payment', 'api_key'];

describe('admin dashboard of an empty installation', () => {
  it('shows every step open, a step done through its link is done back on the dashboard', async () => {
    // the truth, from Node: nothing there yet
    const stats = await rental<{ total_bookings: number }>(rig, '/rova-rental/v1/dashboard/stats');
    expect(stats.total_bookings).toBe(0);
    expect((await rental<Page_>(rig, '/rova-rental/v1/vehicles?per_page=1')).total).toBe(0);
    expect((await rental<Page_>(rig, '/rova-rental/v1/locations?per_page=1')).total).toBe(0);
    const fx = (await rig.api<{ base_currency: string; currencies: unknown[] }>('/rova-fx/v1/currencies')).body;
    expect(fx).toMatchObject({ base_currency: 'USD', currencies: [] });
    expect(await rental(rig, '/rova-rental/v2/payments/config')).toEqual({ providers: ['offline'], stripe: null });
    // the only key is the harness's own: revoked, the installation has no API key (as a fresh one has none)
    const keys = (await rig.api<{ id: number; status: string }[]>('/rova/v1/api-keys?page=1&per_page=100')).body;
    expect(keys.map((k) => k.status)).toEqual(['active']);
    expect((await rig.api(`/rova/v1/api-keys/${keys[0]!.id}`, { method: 'DELETE' })).status).toBe(200);

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const guide = page.getByTestId('setup-guide');
    const step = (id: string) => guide.locator(`li[data-step="${id}"]`);
    await expect
      .poll(() => guide.locator('li[data-step]').evaluateAll((els) => els.map((e) => e.getAttribute('data-done'))))
      .toEqual(STEPS.map(() => 'false'));
    expect(
      await guide.locator('li[data-step]').evaluateAll((els) => els.map((e) => e.getAttribute('data-step'))),
    ).toEqual(STEPS);
    // each state in words (not colour only), inside a list named by the guide's heading
    expect(await guide.getByTestId('setup-state').allTextContents()).toEqual(STEPS.map(() => 'To do'));
    expect(await guide.getByTestId('setup-progress').textContent()).toBe('0 of 5 steps done');
    expect(await page.getByRole('list', { name: 'Get started' }).getByRole('listitem').count()).toBe(5);
    // no empty charts, and nothing to hide: the guide is all there is
    expect(await page.locator('[data-kpi]').count()).toBe(0);
    expect(await page.getByTestId('status-breakdown').count()).toBe(0);
    expect(await guide.getByRole('button', { name: 'Hide this guide' }).count()).toBe(0);
    // each step's link is the screen that does it (payment: the server's environment, no screen)
    const hrefs = await Promise.all(
      STEPS.map(async (id) => {
        const link = step(id).getByRole('link');
        return (await link.count()) ? link.getAttribute('href') : null;
      }),
    );
    expect(hrefs).toEqual(['/admin/currency', '/admin/locations', '/admin/vehicles', null, '/admin/system?tab=keys']);
    expect(await step('payment').textContent()).toContain('BOOKING_PAYMENT_PROVIDERS=offline,stripe');
    await expectAxeClean(page, 'getting started');
    await screenshot(page, 'dashboard-getting-started');

    // the location step, through its link and the location form
    await step('location').getByRole('link', { name: 'Add your first location' }).click();
    await page.getByRole('heading', { level: 1, name: 'Locations' }).waitFor();
    await page.getByRole('button', { name: 'New location' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Harbour Desk');
    await dialog.getByLabel('Type').selectOption('port');
    await dialog.getByLabel('City').fill('Split');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Harbour Desk', exact: true }).waitFor();

    // back by the navigation: that step is done, the others still open
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await expect
      .poll(() => guide.locator('li[data-step]').evaluateAll((els) => els.map((e) => e.getAttribute('data-done'))))
      .toEqual(['false', 'true', 'false', 'false', 'false']);
    expect(await step('location').getByTestId('setup-state').textContent()).toBe('Done');
    expect(await step('location').textContent()).toContain('1 location.');
    expect(await guide.getByTestId('setup-progress').textContent()).toBe('1 of 5 steps done');

    // the API agrees (a new key: the harness's was revoked above)
    rig.shop.adminKey = (await rig.shop.t.userWithKey('administrator')).key;
    const locations = await rental<Page_>(rig, '/rova-rental/v1/locations?per_page=20');
    expect(locations.items.map((l) => l.name)).toEqual(['Harbour Desk']);
    expectNoPageErrors(a);
    await a.context.close();
  }, 120_000);
});
