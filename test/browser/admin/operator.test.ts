import { sql } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  rental,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

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
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name, exact: true }).click();
const money = (n: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(n);

/** Types into a picker, waits for the list the API gives for that text (`listed`), and clicks `want`. */
async function pick(box: Locator, page: Page, text: string, listed: string[], want: string): Promise<void> {
  await box.fill(text);
  const list = page.locator(`[id="${(await box.getAttribute('aria-controls'))!}"]`);
  await expect.poll(() => list.getByRole('option').locator('span:first-child').allTextContents()).toEqual(listed);
  await list
    .getByRole('option')
    .filter({ has: page.getByText(want, { exact: true }) })
    .first()
    .click();
  await expect.poll(() => box.inputValue()).toBe(want);
}

describe('operator fixes', () => {
  it('vendor tabs are routes: clicking each keeps the URL flat, marks the tab and shows its content', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Vendors' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vendors' }).waitFor();
    await expect.poll(() => pathOf(page)).toBe('/admin/vendors/applications');
    const tabs = page.getByRole('navigation', { name: 'Vendor sections' });
    const vendors = (await rig.api<Page_<unknown>>('/rova-rental/v1/vendor-management/vendors?status=all&per_page=20'))
      .body.data;
    const payouts = (await rig.api<Page_<unknown>>('/rova-rental/v2/payouts?per_page=20')).body.data;
    const reports = (await rig.api<Page_<unknown>>('/rova-rental/v1/vendor-reports?per_page=20')).body.data;
    const apps = (await rig.api<Page_<unknown>>('/rova-rental/v1/vendor-management/applications?per_page=20')).body
      .data;
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

  it('booking detail (reached by clicks): vehicle, pick-up and return locations, price breakdown, payments and refunds as the API gives them', async () => {
    interface Detail {
      id: number;
      reference: string;
      currency: string;
      total: number;
      tax: number;
      net_price: number;
      vehicle: { name: string };
      pickup_location: { name: string } | null;
      return_location: { name: string } | null;
      payments: {
        amount: number;
        refunded_amount: number;
        status: string;
        provider: string;
        method: string | null;
        reference: string | null;
      }[];
      refunds: { amount: number; status: string }[];
    }
    const list = await rental<{ items: { id: number; reference: string; pickup_location_id: number | null }[] }>(
      rig,
      '/rova-rental/v1/bookings?per_page=50&status=confirmed&kind=rental',
    );
    const b = list.items.find((x) => x.pickup_location_id !== null) ?? list.items[0]!;
    // a card payment with a partial refund on it (the outside world: the payment provider's records)
    const db = rig.shop.t.platform.db;
    const cur = (await rental<Detail>(rig, `/rova-rental/v1/bookings/${b.id}`)).currency;
    const pay = (await db.execute(
      sql`INSERT INTO rental_payments (booking_id, provider, amount, currency, status, refunded_amount) VALUES (${b.id}, 'stripe', 120.5, ${cur}, 'succeeded', 30) RETURNING id::int AS id`,
    )) as unknown as { rows: { id: number }[] };
    await db.execute(
      sql`INSERT INTO rental_refunds (payment_id, booking_id, amount, currency, reason, status, done_at) VALUES (${pay.rows[0]!.id}, ${b.id}, 30, ${cur}, 'customer_cancelled', 'done', now())`,
    );
    const d = await rental<Detail>(rig, `/rova-rental/v1/bookings/${b.id}`);
    expect(d.payments).toHaveLength(1);

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a);
    await nav(page, 'Bookings');
    await page.getByRole('searchbox', { name: 'Search' }).fill(d.reference);
    await page.getByRole('link', { name: d.reference, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Booking ${d.reference}` }).waitFor();
    expect(await page.getByTestId('detail-vehicle').textContent()).toBe(d.vehicle.name);
    expect(await page.getByTestId('detail-pickup-location').textContent()).toBe(d.pickup_location?.name ?? '—');
    expect(await page.getByTestId('detail-return-location').textContent()).toBe(d.return_location?.name ?? '—');
    const price = await page
      .getByTestId('price-breakdown')
      .locator('tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('th')?.textContent, tr.querySelector('td')?.textContent]),
      );
    expect(price).toContainEqual(['Total', money(d.total, d.currency)]);
    expect(price).toContainEqual(['Net price', money(d.net_price, d.currency)]);
    const payments = await page
      .getByTestId('payments')
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.querySelectorAll('td'))
            .slice(1)
            .map((td) => td.textContent),
        ),
      );
    expect(payments).toEqual(
      // the method column names the provider when no method was recorded (a card payment), then the reference
      d.payments.map((p) => [
        p.method ?? p.provider,
        p.reference ?? '',
        p.status,
        money(p.amount, d.currency),
        money(p.refunded_amount, d.currency),
      ]),
    );
    const refunds = await page
      .getByTestId('refunds')
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.querySelectorAll('td'))
            .slice(1)
            .map((td) => td.textContent),
        ),
      );
    expect(refunds).toEqual([['Cancelled by the customer', 'Refunded', money(30, d.currency)]]);
    await expectAxeClean(page, 'booking detail');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it("pickers instead of ids: a vehicle's location, a transfer route's locations, a pricing rule's vehicle — chosen by name, saved as the right id", async () => {
    interface Loc {
      id: number;
      name: string;
      city: string;
    }
    interface Veh {
      id: number;
      name: string;
      location_id: number | null;
    }
    const locs = (await rental<{ items: Loc[] }>(rig, '/rova-rental/v1/locations?per_page=100')).items;
    expect(locs.length).toBeGreaterThan(1);
    const vehicles = (await rental<{ items: Veh[] }>(rig, '/rova-rental/v1/vehicles?per_page=20')).items;
    const car = vehicles.find((v) => v.location_id !== null) ?? vehicles[0]!;
    const other = locs.find((l) => l.id !== car.location_id)!;
    const matching = (text: string) =>
      locs
        .filter(
          (l) => l.name.toLowerCase().includes(text.toLowerCase()) || l.city.toLowerCase().includes(text.toLowerCase()),
        )
        .slice(0, 10);

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a);
    const dialog = page.getByRole('dialog');

    // Vehicles: the held location shows by name; another one is chosen by typing part of its name
    await nav(page, 'Vehicles');
    await page.getByRole('button', { name: `Edit ${car.name}` }).click();
    const where = dialog.getByRole('combobox', { name: 'Location' });
    if (car.location_id !== null)
      await expect.poll(() => where.inputValue()).toBe(locs.find((l) => l.id === car.location_id)?.name);
    expect(await dialog.getByLabel(/location id/i).count()).toBe(0);
    await pick(
      where,
      page,
      other.name,
      matching(other.name).map((l) => l.name),
      other.name,
    );
    await expectAxeClean(page, 'vehicle form with a location picker');
    // Escape in an open list closes the list, not the panel
    await where.press('ArrowDown');
    await expect.poll(() => where.getAttribute('aria-expanded')).toBe('true');
    await where.press('Escape');
    await expect.poll(() => where.getAttribute('aria-expanded')).toBe('false');
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await rental<Veh>(rig, `/rova-rental/v1/vehicles/${car.id}`)).location_id)
      .toBe(other.id);

    // Transfer routes: origin and destination locations by name
    await nav(page, 'Transfer routes');
    await page.getByRole('button', { name: 'New route' }).click();
    await dialog.getByLabel('Origin', { exact: true }).fill('Picker Airport');
    await dialog.getByLabel('Destination', { exact: true }).fill('Picker Harbour');
    const [from, to] = [locs[0]!, locs[1]!];
    await pick(
      dialog.getByRole('combobox', { name: 'Origin location' }),
      page,
      from.name,
      matching(from.name).map((l) => l.name),
      from.name,
    );
    await pick(
      dialog.getByRole('combobox', { name: 'Destination location' }),
      page,
      to.name,
      matching(to.name).map((l) => l.name),
      to.name,
    );
    await dialog.getByLabel('Base price').fill('55');
    await expectAxeClean(page, 'transfer route form with pickers');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    const routes = (
      await rental<{
        items: { origin: string; origin_location_id: number | null; destination_location_id: number | null }[];
      }>(rig, '/rova-rental/v1/transfer-routes?per_page=100')
    ).items;
    expect(routes.find((r) => r.origin === 'Picker Airport')).toMatchObject({
      origin_location_id: from.id,
      destination_location_id: to.id,
    });

    // Pricing rules: an amount is money in the store's currency (multipliers and percentages stay as they are)
    await nav(page, 'Pricing rules');
    const store = (await rental<{ currency: string }>(rig, '/rova-rental/v1/dashboard/stats')).currency;
    const firstRules = (
      await rental<{
        items: {
          name: string;
          kind: string;
          multiplier: number | null;
          percent: number | null;
          amount: number | null;
          charge: string | null;
          max_per_day: number | null;
        }[];
      }>(rig, '/rova-rental/v1/pricing-rules?per_page=20')
    ).items;
    expect(
      firstRules.some((r) => r.multiplier === null && r.percent === null && r.amount !== null),
      'a demo rule with an amount',
    ).toBe(true);
    const valueCells = page.getByRole('table', { name: 'Pricing rules' }).locator('tbody tr td:nth-child(4)');
    // by kind: a multiplier, an add-on's money per day or booking with its maximum, a one-way fee per booking, a percentage
    const per = (charge: string | null) =>
      charge === 'per_day' ? ' / day' : charge === 'per_booking' ? ' / booking' : '';
    await expect
      .poll(() => valueCells.allTextContents())
      .toEqual(
        firstRules.map((r) =>
          r.kind === 'season' || r.kind === 'weekend'
            ? r.multiplier != null
              ? `× ${r.multiplier}`
              : '—'
            : r.kind === 'addon'
              ? r.amount != null
                ? `${money(r.amount, store)}${per(r.charge)}${r.max_per_day != null ? ` (max ${r.max_per_day})` : ''}`
                : '—'
              : r.kind === 'one_way'
                ? r.amount != null
                  ? `${money(r.amount, store)} / booking`
                  : '—'
                : r.percent != null
                  ? `${r.percent} %`
                  : '—',
        ),
      );
    // a vehicle-scoped rule names its vehicle
    await page.getByRole('button', { name: 'New rule' }).click();
    await dialog.getByLabel('Name').fill('Picker weekend');
    await dialog.getByLabel('Kind').selectOption('weekend');
    await dialog.getByLabel('Scope').selectOption('vehicle');
    const found = (
      await rental<{ items: Veh[] }>(rig, `/rova-rental/v1/vehicles?per_page=10&search=${encodeURIComponent(car.name)}`)
    ).items;
    expect(found[0]?.id).toBe(car.id);
    await pick(
      dialog.getByRole('combobox', { name: 'Vehicle' }),
      page,
      car.name,
      found.map((v) => v.name),
      car.name,
    );
    await dialog.getByLabel('Multiplier').fill('1.1');
    await expectAxeClean(page, 'pricing rule form with a vehicle picker');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    const rules = (
      await rental<{ items: { name: string; scope: string; vehicle_id: number | null }[] }>(
        rig,
        '/rova-rental/v1/pricing-rules?per_page=100&kind=weekend',
      )
    ).items;
    expect(rules.find((r) => r.name === 'Picker weekend')).toMatchObject({ scope: 'vehicle', vehicle_id: car.id });
    expectNoPageErrors(a);
    await a.context.close();
  });

  it("vendor audit texts show money in the store's currency format, not minor units", async () => {
    interface Entry {
      event_type: string;
      amount: number | null;
      currency: string;
      note: string;
    }
    const vendors = (
      await rental<{ items: { id: number; display_name: string }[] }>(
        rig,
        '/rova-rental/v1/vendor-management/vendors?status=all&per_page=50',
      )
    ).items;
    let chosen: { v: (typeof vendors)[number]; entries: Entry[] } | null = null;
    for (const v of vendors) {
      const entries = (
        await rental<{ items: Entry[] }>(rig, `/rova-rental/v1/vendor-management/${v.id}/audit-log?per_page=20`)
      ).items;
      if (entries.some((e) => e.event_type === 'commission_applied')) {
        chosen = { v, entries };
        break;
      }
    }
    expect(chosen, 'a demo vendor with an earned commission').not.toBeNull();
    const { v, entries } = chosen!;
    const applied = entries.find((e) => e.event_type === 'commission_applied')!;
    expect(applied.note).toMatch(/^Booking \d+ completed: gross .+, commission .+ % \(\w+\) = .+, net .+ pending\.$/);
    expect(applied.note).toContain(`net ${money(applied.amount!, applied.currency)} pending`);
    for (const e of entries)
      expect(e.note, e.note).not.toMatch(/minor units|gross \d+,|\b\d{4,}\b (moved|now available|back to)/);

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a);
    await nav(page, 'Vendors');
    await page
      .getByRole('navigation', { name: 'Vendor sections' })
      .getByRole('link', { name: 'Vendors', exact: true })
      .click();
    await page.getByRole('button', { name: `Details of ${v.display_name}` }).click();
    const audit = page.getByRole('dialog').getByTestId('vendor-audit');
    await audit.waitFor();
    const text = (await audit.textContent()) ?? '';
    expect(text).toContain(applied.note);
    expect(text).not.toMatch(/minor units/);
    await expectAxeClean(page, 'vendor audit');
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
    const after = (
      await rig.api<{ id: number; route: string; method: string }[]>('/rova/v1/audit-log?per_page=100&route=auth')
    ).body.filter((e) => e.id > lastId);
    expect(after.filter((e) => e.route.endsWith('/auth/nonce'))).toEqual([]);
    expect(after.map((e) => `${e.method} ${e.route}`)).toContain('POST /wp-json/rova/v1/auth/login');
    expectNoPageErrors(a);
    await a.context.close();
  });
});
