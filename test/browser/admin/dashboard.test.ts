import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  MOBILE,
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

interface Delta {
  format: 'pct' | 'abs' | 'neutral';
  value: number;
}
interface Stats {
  total_bookings: number;
  bookings_this_month: number;
  revenue: number;
  revenue_this_month: number;
  active_vehicles: number;
  active_vehicles_last_month: number;
  deltas: Record<'total_bookings' | 'revenue' | 'customers', Delta>;
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
      const recent = (
        await rig.api<{ data: { items: { reference: string }[] } }>(
          '/rova-rental/v1/dashboard/recent-bookings?per_page=5',
        )
      ).body.data;
      const transfers = (
        await rig.api<{ data: { items: { reference: string }[] } }>(
          '/rova-rental/v1/dashboard/recent-transfers?per_page=5',
        )
      ).body.data;
      expect(stats.total_bookings).toBeGreaterThan(0);

      const a = await openAdmin(rig, viewport);
      await loginAs(rig, a, { path: '/dashboard' });
      const { page } = a;
      const kpi = (id: string) => page.locator(`[data-kpi="${id}"] [data-testid="kpi-value"]`).textContent();
      const card = (id: string) => page.locator(`[data-kpi="${id}"]`);
      await card('bookings_this_month').waitFor();
      const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);
      const money = (n: number) =>
        new Intl.NumberFormat('en-US', { style: 'currency', currency: stats.currency }).format(n);
      const deltaText = (d: Delta) =>
        d.format === 'neutral'
          ? 'no change'
          : d.format === 'pct'
            ? `${d.value > 0 ? '+' : ''}${d.value}%`
            : `${d.value > 0 ? '+' : ''}${fmt(d.value)}`;
      // Each card says what it counts; a month-over-month delta only under a this-month figure; all-time figures
      // are labelled as such and carry no delta.
      const cards = await page
        .locator('[data-kpi]')
        .evaluateAll((els) => els.map((e) => e.querySelector('h2')?.textContent));
      expect(cards).toEqual([
        'Bookings this month',
        'Revenue this month',
        'Active vehicles now',
        'Customers this month',
      ]);
      expect(await kpi('bookings_this_month')).toBe(fmt(stats.bookings_this_month));
      expect(await card('bookings_this_month').getByTestId('delta').textContent()).toContain(
        `${deltaText(stats.deltas.total_bookings)} vs last month`,
      );
      expect(await card('bookings_this_month').getByTestId('kpi-note').textContent()).toBe(
        `All time: ${fmt(stats.total_bookings)}`,
      );
      expect(await kpi('revenue_this_month')).toBe(money(stats.revenue_this_month));
      expect(await card('revenue_this_month').getByTestId('delta').textContent()).toContain(
        `${deltaText(stats.deltas.revenue)} vs last month`,
      );
      expect(await card('revenue_this_month').getByTestId('kpi-note').textContent()).toBe(
        `All time: ${money(stats.revenue)}`,
      );
      expect(await kpi('active_vehicles')).toBe(fmt(stats.active_vehicles));
      expect(await card('active_vehicles').getByTestId('delta').count()).toBe(0);
      expect(await card('active_vehicles').getByTestId('kpi-note').textContent()).toBe(
        `${fmt(stats.active_vehicles - stats.active_vehicles_last_month)} added this month`,
      );
      expect(await kpi('customers')).toBe(fmt(stats.customers));
      expect(await card('customers').getByTestId('delta').textContent()).toContain(
        `${deltaText(stats.deltas.customers)} vs last month`,
      );
      const breakdown = await page
        .getByTestId('status-breakdown')
        .locator('li')
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-status'), e.lastElementChild?.textContent]));
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
