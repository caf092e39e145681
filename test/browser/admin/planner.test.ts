import { sql } from 'drizzle-orm';
import type { Page as PwPage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  dateTimeIn,
  dayHeading,
  periodLabel,
  shiftAnchor,
  shortDateTime,
  todayIn,
  windowOf,
  windowTitle,
  type View,
} from '../../../admin/src/screens/planner/dates.js';
import {
  MOBILE,
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

// The store runs in Europe/Istanbul: the planner's days are that zone's days whatever the browser's.
const TZ = 'Europe/Istanbul';
let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig({ STORE_TIMEZONE: TZ });
});
afterAll(async () => {
  await rig?.close();
});

interface PB {
  id: number;
  reference: string;
  vehicle_id: number;
  status: string;
  pickup_at: string;
  return_at: string;
  holds_slot: boolean;
  hold_expires_at: string | null;
}
interface PV {
  id: number;
  name: string;
  category: string;
  status: string;
  vendor_id: number | null;
}
interface Planner {
  vehicles: PV[];
  vehicles_total: number;
  bookings: PB[];
  filters: { locations: { id: number; name: string }[]; categories: string[]; vendors: { id: number; name: string }[] };
}
const CLOSED = ['cancelled', 'refunded', 'no_show'];

async function plannerApi(view: View, anchor: string, filters = '') {
  const w = windowOf(view, anchor);
  return {
    ...w,
    data: await rental<Planner>(rig, `/rova-rental/v1/admin/planner?from=${w.from}&to=${w.to}${filters}`),
  };
}

/** The rendered bars, as [booking id, accessible name], by id. */
async function bars(page: PwPage): Promise<[number, string][]> {
  const got = await page
    .getByTestId('planner-bar')
    .evaluateAll((els) =>
      els.map(
        (e) => [Number(e.getAttribute('data-booking-id')), e.getAttribute('aria-label') ?? ''] as [number, string],
      ),
    );
  return got.sort((a, b) => a[0] - b[0]);
}

/** What the bars must be: the API's bookings for the window, each named in words. */
function expected(d: Planner): [number, string][] {
  const names = new Map(d.vehicles.map((v) => [v.id, v.name]));
  return d.bookings
    .map((b): [number, string] => [
      b.id,
      `Booking ${b.reference} ${names.get(b.vehicle_id)} ${periodLabel(Date.parse(b.pickup_at), Date.parse(b.return_at), TZ)}, ${b.status.replace('_', ' ')}`,
    ])
    .sort((a, b) => a[0] - b[0]);
}

async function expectBarsMatch(page: PwPage, view: View, anchor: string, d: Planner) {
  const title = windowTitle(view, windowOf(view, anchor).from, windowOf(view, anchor).to);
  await page.getByTestId('planner-title').filter({ hasText: title }).waitFor();
  const want = expected(d);
  // the summary of this answer (no "Updating…": the request for this window and these filters has come back)
  const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
  await expect
    .poll(() => page.getByTestId('planner-summary').textContent(), { timeout: 10_000 })
    .toBe(`${n(d.vehicles_total, 'vehicle')} · ${n(want.length, 'booking')} in ${title} · days in ${TZ}`);
  await expect
    .poll(async () => (await bars(page)).map(([id]) => id), { timeout: 10_000 })
    .toEqual(want.map(([id]) => id));
  const got = await bars(page);
  // accessible name: "Booking RB-… <vehicle> 3–5 June, confirmed" (+ ", hold until …" for a live hold)
  got.forEach(([id, name], i) =>
    expect(name.startsWith(want[i]![1]), `${id}: "${name}" should start "${want[i]![1]}"`).toBe(true),
  );
  expect(await page.getByTestId('planner-row').count()).toBe(d.vehicles.length);
}

describe('admin fleet planner', () => {
  it('renders the API window (one request per window), navigates week/month by clicking, filters, and a bar opens the booking', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    const calls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/rova-rental/v1/admin/planner')) calls.push(r.url());
    });
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Planner' }).click();
    await page.getByRole('heading', { name: 'Planner', level: 1 }).waitFor();

    const today = todayIn(TZ, new Date());
    let anchor = today;
    let w = await plannerApi('week', anchor);
    await expectBarsMatch(page, 'week', anchor, w.data);
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!).searchParams.toString()).toBe(`from=${w.from}&to=${w.to}&limit=500`);
    // the week has 7 day columns per vehicle, today's marked
    expect(await page.getByTestId('planner-row').first().getByTestId('planner-cell').count()).toBe(7);
    await expectAxeClean(page, 'planner week');
    await screenshot(page, 'planner');

    await page.getByRole('button', { name: 'Next week' }).click();
    anchor = shiftAnchor('week', anchor, 1);
    w = await plannerApi('week', anchor);
    await expectBarsMatch(page, 'week', anchor, w.data);
    expect(calls).toHaveLength(2);

    await page.getByRole('button', { name: 'Month', exact: true }).click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Month', exact: true }).getAttribute('aria-pressed'), {
        timeout: 10_000,
      })
      .toBe('true');
    let m = await plannerApi('month', anchor);
    await expectBarsMatch(page, 'month', anchor, m.data);
    expect(calls).toHaveLength(3);
    expect(await page.getByTestId('planner-row').first().getByTestId('planner-cell').count()).toBe(
      Number(m.to.slice(8)),
    );

    await page.getByRole('button', { name: 'Previous month' }).click();
    anchor = shiftAnchor('month', anchor, -1);
    m = await plannerApi('month', anchor);
    await expectBarsMatch(page, 'month', anchor, m.data);
    expect(calls).toHaveLength(4);
    await page.getByRole('button', { name: 'Today' }).click();
    anchor = today;
    m = await plannerApi('month', anchor);
    await expectBarsMatch(page, 'month', anchor, m.data);
    await expectAxeClean(page, 'planner month');

    // cancelled, refunded and no-show only when asked for: one request for the new view
    expect(m.data.bookings.some((b) => CLOSED.includes(b.status))).toBe(false);
    const before = calls.length;
    await page.getByLabel('Show cancelled, refunded and no-show').check();
    const withClosed = await plannerApi('month', anchor, '&closed=true');
    expect(withClosed.data.bookings.some((b) => CLOSED.includes(b.status))).toBe(true);
    await expectBarsMatch(page, 'month', anchor, withClosed.data);
    expect(calls).toHaveLength(before + 1);
    expect(new URL(page.url()).searchParams.get('closed')).toBe('1');
    await page.getByLabel('Show cancelled, refunded and no-show').uncheck();
    await expectBarsMatch(page, 'month', anchor, m.data);

    // filters: the choices come from the same answer; each filter is one request whose answer the grid shows
    const category = m.data.filters.categories.find((c) =>
      m.data.vehicles.some((v) => v.category === c && m.data.bookings.some((b) => b.vehicle_id === v.id)),
    )!;
    await page.getByLabel('Category').selectOption(category);
    const byCat = await plannerApi('month', anchor, `&category=${category}`);
    expect(byCat.data.vehicles.every((v) => v.category === category)).toBe(true);
    await expectBarsMatch(page, 'month', anchor, byCat.data);
    expect(new URL(page.url()).searchParams.get('category')).toBe(category);
    await page.getByLabel('Category').selectOption('');
    const vendor = m.data.filters.vendors[0]!;
    await page.getByLabel('Vendor').selectOption(String(vendor.id));
    const byVendor = await plannerApi('month', anchor, `&vendor=${vendor.id}`);
    expect(byVendor.data.vehicles.length).toBeGreaterThan(0);
    expect(byVendor.data.vehicles.every((v) => v.vendor_id === vendor.id)).toBe(true);
    await expectBarsMatch(page, 'month', anchor, byVendor.data);
    await page.getByLabel('Vendor').selectOption('');
    const location = m.data.filters.locations[0]!;
    await page.getByLabel('Location').selectOption(String(location.id));
    const byLoc = await plannerApi('month', anchor, `&location=${location.id}`);
    await expectBarsMatch(page, 'month', anchor, byLoc.data);
    expect(await page.getByTestId('planner-grid').locator('h2').allTextContents()).toEqual([
      `${location.name} (${byLoc.data.vehicles.length})`,
    ]);
    await page.getByLabel('Location').selectOption('');
    await expectBarsMatch(page, 'month', anchor, m.data);

    // a bar is a link to the booking's detail (the bookings screen's route), reached by keyboard
    const target = m.data.bookings.find((b) => b.status === 'confirmed') ?? m.data.bookings[0]!;
    const bar = page.locator(`[data-testid="planner-bar"][data-booking-id="${target.id}"]`);
    await bar.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Booking ${target.reference}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/bookings/${target.id}`);
    expectNoPageErrors(a);
    await a.context.close();
  }, 180_000);

  it('an empty day cell opens the new-booking form prefilled and priced by the API; saved (a pending-payment hold), the new bar appears with its deadline and buffer', async () => {
    // next week (clear of the minimum notice): an active vehicle with nothing booked that week
    const anchor = shiftAnchor('week', todayIn(TZ, new Date()), 1);
    const w = await plannerApi('week', anchor);
    const vehicle = w.data.vehicles.find(
      (v) => v.status === 'active' && !w.data.bookings.some((b) => b.vehicle_id === v.id),
    )!;
    expect(vehicle).toBeDefined();
    const day = addDays(w.from, 2);
    const quote = await rental<{ available: boolean; total: number; days: number }>(
      rig,
      '/rova-rental/v1/availability',
      {
        method: 'POST',
        body: JSON.stringify({ vehicle_id: vehicle.id, pickup_date: day, return_date: addDays(day, 1) }),
      },
    );
    expect(quote.available).toBe(true);
    const customer = (
      await rental<{ items: { id: number; name: string }[] }>(rig, '/rova-rental/v1/customers?per_page=1')
    ).items[0]!;

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Planner' }).click();
    await page.getByTestId('planner-summary').waitFor();
    await page.getByRole('button', { name: 'Next week' }).click();
    await page
      .getByTestId('planner-title')
      .filter({ hasText: windowTitle('week', w.from, w.to) })
      .waitFor();
    // by keyboard: one day cell per row is in the tab order; arrows move between days and vehicles, Enter opens
    const cell = (d: string) => page.getByRole('link', { name: `New booking: ${vehicle.name}, ${dayHeading(d).long}` });
    expect(await cell(w.from).getAttribute('tabindex')).toBe('0');
    expect(await cell(day).getAttribute('tabindex')).toBe('-1');
    await cell(w.from).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    expect(
      await page.evaluate(() => [
        document.activeElement?.getAttribute('data-day'),
        document.activeElement?.getAttribute('aria-label'),
      ]),
    ).toEqual([day, `New booking: ${vehicle.name}, ${dayHeading(day).long}`]);
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'New booking' }).waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: 'Vehicle' }).inputValue()).toBe(vehicle.name);
    expect(await page.getByLabel('Pick-up date').inputValue()).toBe(day);
    expect(await page.getByLabel('Return date').inputValue()).toBe(addDays(day, 1));
    // the price from the API before saving
    await expect.poll(() => page.getByTestId('quote-total').textContent(), { timeout: 10_000 }).toBe(usd(quote.total));
    expect(await page.getByTestId('quote-availability').textContent()).toBe('Available for these dates.');
    await expectAxeClean(page, 'new booking from the planner');

    const cust = page.getByRole('combobox', { name: 'Customer' });
    await cust.fill(customer.name);
    await page
      .getByRole('listbox', { name: 'Customer' })
      .getByRole('option')
      .filter({ hasText: customer.name })
      .first()
      .click();
    await page.getByLabel('Status').selectOption('pending_payment');
    // paid by card online: the short hold (pay at pick-up, the form's default, would hold it until pick-up)
    await page.getByLabel('Payment', { exact: true }).selectOption('card');
    await page.getByRole('button', { name: 'Create booking' }).click();

    // back on the planner, same window, with the new bar
    await page
      .getByTestId('planner-title')
      .filter({ hasText: windowTitle('week', w.from, w.to) })
      .waitFor();
    const after = await plannerApi('week', anchor);
    const created = after.data.bookings.find((b) => b.vehicle_id === vehicle.id)!;
    expect(created).toBeDefined();
    const full = await rental<{
      customer_id: number;
      total: number;
      status: string;
      vehicle_id: number;
      payment_method: string;
    }>(rig, `/rova-rental/v1/bookings/${created.id}`);
    expect(full).toMatchObject({
      customer_id: customer.id,
      total: quote.total,
      status: 'pending_payment',
      payment_method: 'card',
      vehicle_id: vehicle.id,
    });
    expect(created.holds_slot).toBe(true);
    const deadline = Date.parse(created.hold_expires_at!);
    expect(deadline).toBeGreaterThan(Date.now());
    const bar = page.locator(`[data-testid="planner-bar"][data-booking-id="${created.id}"]`);
    await bar.waitFor();
    await expectBarsMatch(page, 'week', anchor, after.data);
    // a hold: named with its deadline, which is also written on the bar; the buffer drawn around it
    expect(await bar.getAttribute('aria-label')).toBe(
      `Booking ${created.reference} ${vehicle.name} ${periodLabel(Date.parse(created.pickup_at), Date.parse(created.return_at), TZ)}, pending payment, hold until ${dateTimeIn(deadline, TZ, 'en-US')}`,
    );
    expect(
      await page.locator(`[data-testid="planner-hold-until"][data-booking-id="${created.id}"]`).textContent(),
    ).toBe(`until ${shortDateTime(deadline, TZ, Date.now())}`);
    const [barBox, bufferBox] = await Promise.all([
      bar.boundingBox(),
      page.locator(`[data-testid="planner-buffer"][data-booking-id="${created.id}"]`).boundingBox(),
    ]);
    // 60 minutes each side of a day 112 px wide: ≈ 4.7 px
    expect(barBox!.x - bufferBox!.x).toBeCloseTo(112 / 24, 0);
    expect(bufferBox!.x + bufferBox!.width - (barBox!.x + barBox!.width)).toBeCloseTo(112 / 24, 0);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('month view at 1280 px: every day column is in view or reached by scrolling sideways, the vehicle column fixed and the hint saying so', async () => {
    const a = await openAdmin(rig, { width: 1280, height: 800 });
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Planner' }).click();
    await page.getByTestId('planner-summary').waitFor();
    await page.getByRole('button', { name: 'Month', exact: true }).click();
    const m = await plannerApi('month', todayIn(TZ, new Date()));
    await expectBarsMatch(page, 'month', todayIn(TZ, new Date()), m.data);
    const days = Number(m.to.slice(8));
    const heads = page.getByTestId('planner-day');
    expect(await heads.count()).toBe(days);
    // the page itself never scrolls sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    const region = page.getByRole('region', { name: /^Planner / });
    const box = (await region.boundingBox())!;
    const right = async () => (await heads.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right)))!;
    const fits = (await right()).every((r) => r <= box.x + box.width + 0.5);
    const hint = page.getByTestId('planner-scroll-hint');
    if (fits) {
      expect(await hint.count()).toBe(0);
    } else {
      // it scrolls, and says so (the region is described by the hint)
      expect(await hint.textContent()).toContain('Scroll sideways for more days: the vehicle column stays in place.');
      expect(await hint.isVisible()).toBe(true);
      expect(await region.getAttribute('aria-describedby')).toBe('planner-scroll-hint');
      await screenshot(page, 'planner-month');
      const label = page.getByTestId('planner-row').first().locator('xpath=./div[1]');
      const column = page.getByTestId('planner-vehicle-heading');
      const [labelBefore, columnBefore] = [(await label.boundingBox())!, (await column.boundingBox())!];
      // sideways with the mouse wheel over the grid, to the last day
      const max = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(max).toBeGreaterThan(0);
      await region.hover();
      await page.mouse.wheel(max + 100, 0);
      await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThanOrEqual(max - 1);
      // the vehicle column stayed where it was, and the last day is now inside the region, right of that column
      const [labelAfter, columnAfter] = [(await label.boundingBox())!, (await column.boundingBox())!];
      expect(labelAfter.x).toBeCloseTo(labelBefore.x, 0);
      expect(columnAfter.x).toBeCloseTo(columnBefore.x, 0);
      const last = (await heads.last().boundingBox())!;
      expect(last.x).toBeGreaterThanOrEqual(labelAfter.x + labelAfter.width - 0.5);
      expect(last.x + last.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }
    await expectAxeClean(page, 'planner month 1280');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('phone width: the grid scrolls sideways inside its region, axe clean', async () => {
    const a = await openAdmin(rig, MOBILE);
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Planner' }).click();
    await page.getByTestId('planner-summary').waitFor();
    const region = page.getByRole('region', { name: /^Planner / });
    const [scroll, client, pageWidth] = await region.evaluate((el) => [
      el.scrollWidth,
      el.clientWidth,
      document.documentElement.scrollWidth,
    ]);
    expect(scroll).toBeGreaterThan(client);
    expect(pageWidth).toBeLessThanOrEqual(390);
    await page.getByTestId('planner-scroll-hint').waitFor();
    await expectAxeClean(page, 'planner mobile');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('a large fleet: 100 more vehicles, only the rows near the visible part are drawn; scrolling draws the rest', async () => {
    const db = rig.shop.t.platform.db;
    await db.execute(sql`INSERT INTO rental_locations (name, slug) VALUES ('Zz Depot', 'zz-depot')`);
    await db.execute(sql`INSERT INTO rental_vehicles (name, slug, status, price_per_day, category, location_id)
      SELECT 'Depot car ' || lpad(g::text, 3, '0'), 'depot-car-' || g, 'active', 40, 'economy', (SELECT id FROM rental_locations WHERE slug = 'zz-depot')
      FROM generate_series(1, 100) g`);
    const w = await plannerApi('week', todayIn(TZ, new Date()), '&limit=500');
    expect(w.data.vehicles_total).toBeGreaterThan(120);
    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Planner' }).click();
    await page
      .getByTestId('planner-summary')
      .filter({ hasText: `${w.data.vehicles_total} vehicles` })
      .waitFor();
    const drawn = await page.getByTestId('planner-row').count();
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(w.data.vehicles_total);
    expect(await page.getByText('Depot car 100').count()).toBe(0);
    // the scroll region is as tall as all rows: scrolled to the end, the last rows are drawn
    await page.getByRole('region', { name: /^Planner / }).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.getByText('Depot car 100').waitFor();
    const rows = page.getByTestId('planner-row');
    expect(await rows.last().getAttribute('data-vehicle-id')).toBe(String(w.data.vehicles.at(-1)!.id));
    expect(await rows.first().getAttribute('data-vehicle-id')).not.toBe(String(w.data.vehicles[0]!.id));
    expect(await page.getByTestId('planner-row').count()).toBeLessThan(w.data.vehicles_total);
    await expectAxeClean(page, 'planner large fleet');
    expectNoPageErrors(a);
    await a.context.close();
  });
});
