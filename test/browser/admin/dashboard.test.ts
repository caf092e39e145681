import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, expectAxeClean, expectNoPageErrors, loginAs, openAdmin, screenshot, startAdminRig, type AdminRig } from './helpers.js';

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Stats {
  total_bookings: number;
  revenue: number;
  active_vehicles: number;
  customers: number;
  currency: string;
  status_breakdown: { status: string; label: string; count: number }[];
}

describe('admin dashboard', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    it(`shows the API's KPI numbers, status breakdown, recent bookings and upcoming transfers (${name})`, async () => {
      const stats = (await rig.api<{ data: Stats }>('/rova-rental/v1/dashboard/stats')).body.data;
      const recent = (await rig.api<{ data: { items: { reference: string }[] } }>('/rova-rental/v1/dashboard/recent-bookings?per_page=5')).body.data;
      const transfers = (await rig.api<{ data: { items: { reference: string }[] } }>('/rova-rental/v1/dashboard/recent-transfers?per_page=5')).body.data;
      expect(stats.total_bookings).toBeGreaterThan(0);

      const a = await openAdmin(rig, viewport);
      await loginAs(rig, a, { path: '/dashboard' });
      const { page } = a;
      const kpi = (id: string) => page.locator(`[data-kpi="${id}"] [data-testid="kpi-value"]`).textContent();
      await page.locator('[data-kpi="total_bookings"]').waitFor();
      const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);
      expect(await kpi('total_bookings')).toBe(fmt(stats.total_bookings));
      expect(await kpi('revenue')).toBe(new Intl.NumberFormat('en-US', { style: 'currency', currency: stats.currency }).format(stats.revenue));
      expect(await kpi('active_vehicles')).toBe(fmt(stats.active_vehicles));
      expect(await kpi('customers')).toBe(fmt(stats.customers));
      const breakdown = await page.getByTestId('status-breakdown').locator('li').evaluateAll((els) => els.map((e) => [e.getAttribute('data-status'), e.lastElementChild?.textContent]));
      expect(breakdown).toEqual(stats.status_breakdown.map((s) => [s.status, String(s.count)]));
      const recentText = (await page.getByTestId('recent-bookings').textContent()) ?? '';
      for (const b of recent.items) expect(recentText).toContain(b.reference);
      if (transfers.items.length > 0) {
        const tText = (await page.getByTestId('upcoming-transfers').textContent()) ?? '';
        for (const t of transfers.items) expect(tText).toContain(t.reference);
      }
      await expectAxeClean(page, `dashboard ${name}`);
      await screenshot(page, name === 'desktop' ? 'dashboard' : 'dashboard-mobile');
      expectNoPageErrors(a);
      await a.context.close();
    });
  }
});
