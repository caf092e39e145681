import type { Page as PwPage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  dateIn,
  dayHeading,
  shiftAnchor,
  todayIn,
  windowOf,
  windowTitle,
} from '../../../admin/src/screens/planner/dates.js';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  startAdminRig,
  usd,
  type AdminRig,
} from './helpers.js';

// Issue 35 item 6: the operator's planner — a walk-in booking from an empty cell (times, locations, a new customer,
// how it is paid) in one submit, the way back to the planner as it was, and bars moved by dragging with the server's
// price difference confirmed before saving.
const TZ = 'Europe/Istanbul';
let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig({ STORE_TIMEZONE: TZ });
});
afterAll(async () => {
  await rig?.close();
});

interface PV {
  id: number;
  name: string;
  status: string;
}
interface PB {
  id: number;
  vehicle_id: number;
  pickup_at: string;
  return_at: string;
}
interface Planner {
  vehicles: PV[];
  bookings: PB[];
}
interface Booking {
  id: number;
  reference: string;
  vehicle_id: number;
  customer_id: number;
  customer_name: string;
  customer_email: string;
  pickup_at: string;
  return_at: string;
  pickup_location_id: number | null;
  return_location_id: number | null;
  payment_method: string | null;
  payment_deadline: string | null;
  payment_status: string;
  status: string;
  total: number;
  days: number;
}
interface Quote {
  previous_total: number;
  total: number;
  difference: number;
  refund: number;
  due: number;
  booking: Booking;
}

const planner = (from: string, to: string) =>
  rental<Planner>(rig, `/rova-rental/v1/admin/planner?from=${from}&to=${to}&limit=500`);
/** "2031-06-10 09:30" in the store's zone. */
const local = (iso: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: TZ, dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
const freeVehicles = (d: Planner) =>
  d.vehicles.filter((v) => v.status === 'active' && !d.bookings.some((b) => b.vehicle_id === v.id));

async function openPlanner(page: PwPage) {
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Planner' }).click();
  await page.getByTestId('planner-summary').waitFor();
}
const title = (page: PwPage, t: string) => page.getByTestId('planner-title').filter({ hasText: t }).waitFor();
const barOf = (page: PwPage, id: number) => page.locator(`[data-testid="planner-bar"][data-booking-id="${id}"]`);
const rowOf = (page: PwPage, vehicle: number) =>
  page.locator(`[data-testid="planner-row"][data-vehicle-id="${vehicle}"]`);

describe('admin planner: walk-in bookings and moves', () => {
  it('an empty cell: a walk-in customer, times, locations and pay at pick-up in one submit; the detail shows it, and back returns to the planner at the same month', async () => {
    const anchor = shiftAnchor('month', todayIn(TZ, new Date()), 1);
    const w = windowOf('month', anchor);
    const vehicle = freeVehicles(await planner(w.from, w.to))[0]!;
    expect(vehicle).toBeDefined();
    const day = addDays(w.from, 9);
    const locs = (
      await rental<{ items: { id: number; name: string }[] }>(rig, '/rova-rental/v1/locations?per_page=100')
    ).items;
    expect(locs.length).toBeGreaterThanOrEqual(2);
    const [pickLoc, retLoc] = [locs[0]!, locs[1]!];
    const email = `walk-in-${Date.now()}@example.test`;

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await openPlanner(page);
    await page.getByRole('button', { name: 'Month', exact: true }).click();
    await page.getByRole('button', { name: 'Next month' }).click();
    const monthTitle = windowTitle('month', w.from, w.to);
    await title(page, monthTitle);
    await page.getByRole('link', { name: `New booking: ${vehicle.name}, ${dayHeading(day).long}` }).click();

    await page.getByRole('heading', { name: 'New booking' }).waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: 'Vehicle' }).inputValue()).toBe(vehicle.name);
    expect(await page.getByLabel('Pick-up date').inputValue()).toBe(day);
    await page.getByLabel('New customer (walk-in)').check();
    await page.getByLabel('Customer name').fill('Wanda Walkin');
    await page.getByLabel('Customer e-mail').fill(email);
    await page.getByLabel('Customer phone').fill('+90 555 010 0101');
    await page.getByLabel('Pick-up time').fill('09:30');
    await page.getByLabel('Return date').fill(addDays(day, 3));
    await page.getByLabel('Return time').fill('16:00');
    for (const [label, loc] of [
      ['Pick-up location', pickLoc],
      ['Return location', retLoc],
    ] as const) {
      await page.getByRole('combobox', { name: label }).fill(loc.name);
      await page
        .getByRole('listbox', { name: label })
        .getByRole('option')
        .filter({ hasText: loc.name })
        .first()
        .click();
    }
    // pay at pick-up is the desk's default; said out loud here
    expect(await page.getByLabel('Payment', { exact: true }).inputValue()).toBe('pay_at_pickup');
    await page.getByLabel('Status').selectOption('pending');
    await expectAxeClean(page, 'new walk-in booking');
    await page.getByRole('button', { name: 'Create booking' }).click();

    // back on the planner at the same month, with the new bar
    await title(page, monthTitle);
    const after = await planner(w.from, w.to);
    const made = after.bookings.find((b) => b.vehicle_id === vehicle.id)!;
    expect(made).toBeDefined();
    const b = await rental<Booking>(rig, `/rova-rental/v1/bookings/${made.id}`);
    expect(b).toMatchObject({
      customer_name: 'Wanda Walkin',
      customer_email: email,
      pickup_location_id: pickLoc.id,
      return_location_id: retLoc.id,
      payment_method: 'pay_at_pickup',
      payment_deadline: null,
      payment_status: 'unpaid',
      status: 'pending',
    });
    expect(local(b.pickup_at)).toBe(`${day} 09:30`);
    expect(local(b.return_at)).toBe(`${addDays(day, 3)} 16:00`);
    const customers = await rental<{ items: { id: number; name: string; phone: string | null }[] }>(
      rig,
      `/rova-rental/v1/customers?search=${encodeURIComponent(email)}`,
    );
    expect(customers.items).toMatchObject([{ id: b.customer_id, name: 'Wanda Walkin', phone: '+90 555 010 0101' }]);

    // scrolled sideways (the bar still in view): the scroll goes into the address when it stops
    const region = page.getByRole('region', { name: `Planner ${monthTitle}` });
    const sx = await barOf(page, b.id).evaluate((el) => Math.max(0, (el as HTMLElement).offsetLeft - 120));
    expect(sx).toBeGreaterThan(0);
    await region.evaluate((el, x) => el.scrollTo({ left: x }), sx);
    await expect.poll(() => new URL(page.url()).searchParams.get('sx')).toBe(String(sx));
    // the bar opens the detail; its link goes back to the planner where it was
    await barOf(page, b.id).click();
    await page.getByRole('heading', { name: `Booking ${b.reference}` }).waitFor();
    expect(await page.getByTestId('detail-payment').textContent()).toBe('unpaid (pay at pick-up)');
    expect(await page.getByTestId('detail-deadline').textContent()).toBe('None: held until pick-up');
    expect(await page.getByTestId('detail-pickup-location').textContent()).toBe(pickLoc.name);
    expect(await page.getByTestId('detail-return-location').textContent()).toBe(retLoc.name);
    expect(await page.getByTestId('detail-status').textContent()).toBe('Pending');
    await page.getByRole('link', { name: '← Back to planner' }).click();
    await title(page, monthTitle);
    await barOf(page, b.id).waitFor();
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBe(sx);
    // the browser's back does the same
    await barOf(page, b.id).click();
    await page.getByRole('heading', { name: `Booking ${b.reference}` }).waitFor();
    await page.goBack();
    await title(page, monthTitle);
    expect(new URL(page.url()).searchParams.get('view')).toBe('month');
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBe(sx);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('a bar dragged to another day and vehicle: the server’s price difference confirmed, then saved; a refused move saves nothing; Move… from the bar’s menu', async () => {
    const anchor = shiftAnchor('week', shiftAnchor('week', todayIn(TZ, new Date()), 1), 1);
    const w = windowOf('week', anchor);
    const free = freeVehicles(await planner(w.from, w.to));
    const prices = new Map<number, number>();
    for (const v of free.slice(0, 12))
      prices.set(
        v.id,
        (await rental<{ price_per_day: number }>(rig, `/rova-rental/v1/vehicles/${v.id}`)).price_per_day,
      );
    const pool = free.filter((v) => prices.has(v.id));
    // two free vehicles of different prices (the move changes the price), and a third that gets in the way
    const from = pool[0]!;
    const to = pool.find((v) => prices.get(v.id) !== prices.get(from.id))!;
    const busy = pool.find((v) => v !== from && v !== to)!;
    expect(to).toBeDefined();
    expect(busy).toBeDefined();
    const d0 = addDays(w.from, 1);
    const make = (vehicle: number, pickup: string, ret: string) =>
      rental<Booking>(rig, '/rova-rental/v1/bookings', {
        method: 'POST',
        body: JSON.stringify({
          vehicle_id: vehicle,
          customer: { name: 'Mo Ver', email: 'mo.ver@example.test' },
          pickup_date: pickup,
          return_date: ret,
          status: 'confirmed',
          payment_method: 'pay_at_pickup',
        }),
      });
    const b = await make(from.id, d0, addDays(d0, 2));
    await make(busy.id, addDays(d0, 1), addDays(d0, 4));
    // what the server says the move costs (a quote writes nothing)
    const want = await rental<Quote>(rig, `/rova-rental/v1/bookings/${b.id}/quote`, {
      method: 'POST',
      body: JSON.stringify({ vehicle_id: to.id, pickup_date: addDays(d0, 1), return_date: addDays(d0, 3) }),
    });
    expect(want.difference).not.toBe(0);

    // tall enough for every row of the demo fleet in the planner's region: a drag reaches any vehicle's row
    const a = await openAdmin(rig, { width: 1280, height: 2200 });
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await openPlanner(page);
    await page.getByRole('button', { name: 'Next week' }).click();
    await page.getByRole('button', { name: 'Next week' }).click();
    await title(page, windowTitle('week', w.from, w.to));
    const bar = barOf(page, b.id);

    /** Drags from the middle of `el` by `days` columns (112 px each in a week) onto the row of `vehicle`. */
    const drag = async (el: ReturnType<typeof barOf>, days: number, vehicle: number | null) => {
      await el.scrollIntoViewIfNeeded();
      const box = (await el.boundingBox())!;
      const row = vehicle === null ? null : (await rowOf(page, vehicle).boundingBox())!;
      if (row) expect(row.y + row.height, 'the target row is on the screen').toBeLessThan(2200);
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + days * 112, row ? row.y + row.height / 2 : y, { steps: 10 });
      await page.mouse.up();
    };

    // drag one day later onto the other vehicle
    await drag(bar, 1, to.id);
    const dialog = page.getByTestId('move-dialog');
    await dialog.waitFor();
    await expect
      .poll(() => page.getByTestId('move-old').textContent(), { timeout: 10_000 })
      .toBe(usd(want.previous_total));
    expect(await page.getByTestId('move-new').textContent()).toBe(
      `${usd(want.total)} (${want.booking.days} day${want.booking.days === 1 ? '' : 's'})`,
    );
    expect(await page.getByTestId('move-diff').textContent()).toBe(
      want.difference > 0 ? `+${usd(want.difference)}` : `−${usd(-want.difference)}`,
    );
    expect(await dialog.getByLabel('Vehicle').inputValue()).toBe(String(to.id));
    expect(await dialog.getByLabel('Pick-up date').inputValue()).toBe(addDays(d0, 1));
    expect(await dialog.getByLabel('Return date').inputValue()).toBe(addDays(d0, 3));
    // where it would go: a ghost in the other vehicle's row
    await rowOf(page, to.id).getByTestId('planner-ghost').waitFor();
    await expectAxeClean(page, 'move dialog');
    await dialog.getByRole('button', { name: 'Save move' }).click();
    await dialog.waitFor({ state: 'detached' });
    const moved = await rental<Booking>(rig, `/rova-rental/v1/bookings/${b.id}`);
    expect(moved).toMatchObject({ vehicle_id: to.id, total: want.total });
    expect(moved.pickup_at).toBe(want.booking.pickup_at);
    expect(moved.return_at).toBe(want.booking.return_at);
    expect(dateIn(Date.parse(moved.pickup_at), TZ)).toBe(addDays(d0, 1));
    await rowOf(page, to.id).locator(`[data-testid="planner-bar"][data-booking-id="${b.id}"]`).waitFor();

    // onto the vehicle that is booked then: the server's refusal, nothing saved, the bar stays where it was
    await drag(barOf(page, b.id), 0, busy.id);
    await dialog.waitFor();
    await expect
      .poll(() => page.getByTestId('move-refused').textContent(), { timeout: 10_000 })
      .toBe('The vehicle is not available for these dates (booked).');
    expect(await dialog.getByRole('button', { name: 'Save move' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('planner-ghost').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await rental<Booking>(rig, `/rova-rental/v1/bookings/${b.id}`)).vehicle_id).toBe(to.id);
    await rowOf(page, to.id).locator(`[data-testid="planner-bar"][data-booking-id="${b.id}"]`).waitFor();

    // by keyboard: Shift+F10 on the bar opens its menu, Move… the same dialog; one more day by its return date
    await barOf(page, b.id).focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: `Booking ${b.reference}` });
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Move…');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByLabel('Return date').fill(addDays(d0, 4));
    const longer = await rental<Quote>(rig, `/rova-rental/v1/bookings/${b.id}/quote`, {
      method: 'POST',
      body: JSON.stringify({ pickup_date: addDays(d0, 1), return_date: addDays(d0, 4) }),
    });
    await expect
      .poll(() => page.getByTestId('move-new').textContent(), { timeout: 10_000 })
      .toBe(`${usd(longer.total)} (${longer.booking.days} days)`);
    await dialog.getByRole('button', { name: 'Save move' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await rental<Booking>(rig, `/rova-rental/v1/bookings/${b.id}`)).toMatchObject({
      total: longer.total,
      return_at: longer.booking.return_at,
    });

    // its end dragged a day back: the return day only, priced by the server; cancelled, nothing changes
    await expect.poll(() => barOf(page, b.id).evaluate((el) => (el as HTMLElement).offsetWidth)).toBe(3 * 112);
    const end = (await barOf(page, b.id).getByTestId('planner-bar-end').boundingBox())!;
    await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2);
    await page.mouse.down();
    await page.mouse.move(end.x + end.width / 2 - 112, end.y + end.height / 2, { steps: 8 });
    await page.mouse.up();
    await dialog.waitFor();
    expect(await dialog.getByLabel('Pick-up date').inputValue()).toBe(addDays(d0, 1));
    expect(await dialog.getByLabel('Return date').inputValue()).toBe(addDays(d0, 3));
    expect(await dialog.getByLabel('Vehicle').inputValue()).toBe(String(to.id));
    await expect
      .poll(() => page.getByTestId('move-new').textContent(), { timeout: 10_000 })
      .toBe(`${usd(want.total)} (2 days)`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await rental<Booking>(rig, `/rova-rental/v1/bookings/${b.id}`)).total).toBe(longer.total);
    expectNoPageErrors(a);
    await a.context.close();
  });
});
