import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VENDOR_LOGIN, DEMO_VENDOR_PASSWORD } from '../../../src/modules/rental/seed/marketplace.js';
import { earningsByMonth, lastTwelveMonths, monthLabel } from '../../../admin/src/screens/vendor-portal/months.js';
import { scoreChange } from '../../../admin/src/screens/vendor-portal/score.js';
import { PDF } from '../../rental/market/helpers.js';
import {
  type AdminPage,
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  screenshot,
  startAdminRig,
  usd,
  type AdminRig,
} from './helpers.js';

// The demo vendor Anatolia Cars (demo-vendor-anatolia / demo-vendor-2026): three vehicles (the van withdrawn with
// a penalty it appealed), a year of completed rentals, one upcoming confirmed rental of its first car, money
// available. Every figure on screen is compared with the vendor's own API answer, fetched here with its own key.
let rig: AdminRig;
let vendorKey = '';
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-vendor-portal-'));
beforeAll(async () => {
  rig = await startAdminRig({ DATA_DIR: dataDir });
  const auth = rig.shop.t.platform.auth;
  const u = (await auth.findUser(DEMO_VENDOR_LOGIN))!;
  vendorKey = (await auth.createApiKey({ userId: u.id, scopes: ['read', 'write'] })).key;
});
afterAll(async () => {
  await rig?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The vendor's own API (its key), the envelope's data. */
async function asVendor<T>(p: string, init: RequestInit = {}): Promise<T> {
  const r = await rig.api<{ data: T }>(p, {
    ...init,
    headers: { 'x-rova-api-key': vendorKey, ...(init.headers ?? {}) },
  });
  if (r.status >= 300) throw new Error(`${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

interface Summary {
  balances: { available: number; pending: number; on_hold: number; owed: number };
  payouts: { min_payout: number; payout_freeze: boolean; open_payout_id: number | null; open_payout_no: number | null };
  daily: { date: string; gross: number; net: number }[];
}
interface Vehicle {
  id: number;
  name: string;
  lifecycle: string;
}
interface Booking {
  id: number;
  reference: string;
  vehicle_name: string;
  status: string;
}
interface Payout {
  id: number;
  statement_no: number;
  amount: number;
  status: string;
  statement_number: string | null;
}

async function openPortal(p: string, viewport?: { width: number; height: number }): Promise<AdminPage> {
  const a = await openAdmin(rig, viewport);
  await loginAs(rig, a, { path: p, login: DEMO_VENDOR_LOGIN, password: DEMO_VENDOR_PASSWORD });
  return a;
}

const WORDS: Record<string, string> = {
  pending_review: 'Under review',
  active: 'Listed',
  paused: 'Paused',
  withdrawn: 'Withdrawn',
};

describe('vendor portal (issue 22)', () => {
  it("dashboard: balances, earnings by month, upcoming bookings and the score are the API's; a vendor has no operator screen", async () => {
    const a = await openPortal('/');
    const { page } = a;
    await page.waitForURL(/\/admin\/vendor\/dashboard$/);
    await page.getByRole('heading', { level: 1, name: 'Vendor dashboard' }).waitFor();
    const store = await asVendor<{ currency: string }>('/rova-rental/v2/ledger/summary?per_page=1');
    expect(store.currency).toBe('USD');
    const tz = (await rig.api<{ store: { timezone: string } }>('/rova/v1/auth/me')).body.store.timezone;
    const today = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
    const w = lastTwelveMonths(today);
    const s = await asVendor<Summary>(
      `/rova-rental/v2/ledger/summary?start_date=${w.start_date}&end_date=${w.end_date}&per_page=1`,
    );
    for (const [label, v] of [
      ['Pending', s.balances.pending],
      ['Available', s.balances.available],
      ['On hold', s.balances.on_hold],
      ['Owed', s.balances.owed],
    ] as const) {
      await expect.poll(() => page.locator(`[data-stat="${label}"]`).textContent()).toContain(usd(v));
    }
    expect(s.balances.available).toBeGreaterThan(0);
    const months = earningsByMonth(s.daily);
    expect(months.length).toBe(12);
    expect(months.some((m) => m.net > 0)).toBe(true);
    const rows = page.getByTestId('earnings-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(12);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('[data-testid="net"]')!.textContent]),
    );
    expect(shown).toEqual(months.map((m) => [monthLabel(m.month, 'en-US'), usd(m.net)]));

    const upcoming = await asVendor<{ items: (Booking & { customer_name: string })[]; total: number }>(
      '/rova-rental/v1/vendor/bookings?scope=upcoming&per_page=5',
    );
    expect(upcoming.total).toBe(1);
    const list = page.getByTestId('upcoming').locator('li');
    await expect
      .poll(() => list.evaluateAll((li) => li.map((x) => x.getAttribute('data-booking'))))
      .toEqual(upcoming.items.map((b) => b.reference));
    await expect.poll(() => list.first().textContent()).toContain(upcoming.items[0]!.vehicle_name);

    const profile = await asVendor<{ reliability_score: number; score_history: unknown[] }>(
      '/rova-rental/v1/vendor/profile',
    );
    await expect.poll(() => page.getByTestId('score').textContent()).toBe(String(profile.reliability_score));
    expect(profile.score_history.length).toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('score-history').locator('tbody tr').count())
      .toBe(profile.score_history.length);

    // navigation: the portal only — no operator screen
    const nav = await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allTextContents();
    expect(nav).toEqual(['Dashboard', 'My vehicles', 'Bookings', 'Payouts', 'Reports', 'Profile']);
    await expectAxeClean(page, 'vendor dashboard');
    await screenshot(page, 'vendor-portal-dashboard');
    // an operator URL typed by hand: not found here, and the API refuses the vendor anyway
    await page.goto(`${rig.shop.origin}/admin/vendors/list`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(
      (await rig.api('/rova-rental/v1/vendor-management/vendors', { headers: { 'x-rova-api-key': vendorKey } })).status,
    ).toBe(403);
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('vehicles: the API list with status in words; pause shows the score change first; create round-trips to "Under review", then edit', async () => {
    const a = await openPortal('/vendor/vehicles');
    const { page } = a;
    await page.getByRole('heading', { level: 1, name: 'My vehicles' }).waitFor();
    const list = await asVendor<{ items: Vehicle[]; total: number }>('/rova-rental/v1/vendor/vehicles?per_page=20');
    const table = page.getByRole('table', { name: 'My vehicles' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(list.items.length);
    const shown = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelectorAll('td')[0]!.textContent, tr.querySelector('[data-lifecycle]')!.textContent]),
      );
    expect(shown.map(([n, st]) => [n, st!.replace(/ since .*/, '')])).toEqual(
      list.items.map((v) => [v.name, WORDS[v.lifecycle]]),
    );
    expect(list.items.map((v) => v.lifecycle)).toContain('withdrawn');

    // pause the Corolla (no confirmed booking): the dialog shows the API's score change before confirming
    const car = list.items.find((v) => v.name.startsWith('Toyota Corolla'))!;
    const cost = await asVendor<{ reliability_score: number; reliability_score_after: number }>(
      '/rova-rental/v1/vendor/consequences?action=pause',
    );
    // Anatolia's completed rentals lift its score to the maximum, and the bonus absorbs a pause: the dialog says the
    // score is at the maximum and stays there, not "100 → 100 (no change)"
    expect([cost.reliability_score, cost.reliability_score_after]).toEqual([100, 100]);
    await page.getByRole('button', { name: `Pause ${car.name}` }).click();
    const dlg = page.getByRole('alertdialog');
    await expect
      .poll(() => dlg.getByTestId('consequence-score').textContent())
      .toBe('Reliability score: 100 — already the maximum, and it stays there');
    await expectAxeClean(page, 'pause dialog');
    await dlg.getByRole('button', { name: 'Pause' }).click();
    await dlg.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await asVendor<Vehicle>(`/rova-rental/v1/vendor/vehicles/${car.id}`)).lifecycle)
      .toBe('paused');
    await expect
      .poll(() => table.locator('tbody tr', { hasText: car.name }).locator('[data-lifecycle]').textContent())
      .toBe('Paused');
    // withdrawing shows the penalty the API would take (not confirmed here)
    const clio = list.items.find((v) => v.name.startsWith('Renault Clio'))!;
    const w = await asVendor<{ penalty: number }>(
      `/rova-rental/v1/vendor/consequences?action=withdraw&vehicle_id=${clio.id}`,
    );
    expect(w.penalty).toBeGreaterThan(0);
    await page.getByRole('button', { name: `Withdraw ${clio.name}` }).click();
    await expect
      .poll(() => page.getByRole('alertdialog').getByTestId('consequence').textContent())
      .toContain(usd(w.penalty));
    await page.keyboard.press('Escape');

    // create
    await page.getByRole('button', { name: 'New vehicle' }).click();
    const form = page.getByRole('form', { name: 'New vehicle' });
    await form.getByLabel('Name').fill('Skoda Octavia (Anatolia)');
    await form.getByLabel('Price per day (USD)').fill('57.50');
    await form.getByLabel('Category').selectOption('compact');
    await form.getByLabel('Brand').fill('Skoda');
    await form.getByLabel('Model').fill('Octavia');
    await form.getByLabel('Year').fill('2024');
    await form.getByLabel('Seats').fill('5');
    await form.getByLabel('Transmission').selectOption('automatic');
    await form.getByLabel('Fuel').selectOption('diesel');
    await expectAxeClean(page, 'new vehicle form');
    await form.getByRole('button', { name: 'Submit for review' }).click();
    await form.waitFor({ state: 'detached' });
    const after = await asVendor<{
      items: (Vehicle & {
        price_per_day: number;
        brand: string;
        transmission: string;
        fuel_type: string;
        year: number;
      })[];
      total: number;
    }>('/rova-rental/v1/vendor/vehicles?per_page=20');
    expect(after.total).toBe(list.total + 1);
    expect(after.items.find((v) => v.name === 'Skoda Octavia (Anatolia)')).toMatchObject({
      lifecycle: 'pending_review',
      price_per_day: 57.5,
      brand: 'Skoda',
      transmission: 'automatic',
      fuel_type: 'diesel',
      year: 2024,
    });
    await expect
      .poll(() =>
        table.locator('tbody tr', { hasText: 'Skoda Octavia (Anatolia)' }).locator('[data-lifecycle]').textContent(),
      )
      .toBe('Under review');
    // edit it: the form opens with its values, the change round-trips
    const created = after.items.find((v) => v.name === 'Skoda Octavia (Anatolia)')!;
    await page.getByRole('button', { name: 'Edit Skoda Octavia (Anatolia)' }).click();
    const edit = page.getByRole('form', { name: 'Edit Skoda Octavia (Anatolia)' });
    expect(await edit.getByLabel('Price per day (USD)').inputValue()).toBe('57.5');
    expect(await edit.getByLabel('Fuel').inputValue()).toBe('diesel');
    await edit.getByLabel('Price per day (USD)').fill('59');
    await edit.getByLabel('Seats').fill('7');
    await edit.getByRole('button', { name: 'Save vehicle' }).click();
    await edit.waitFor({ state: 'detached' });
    expect(
      await asVendor<{ price_per_day: number; seats: number; name: string }>(
        `/rova-rental/v1/vendor/vehicles/${created.id}`,
      ),
    ).toMatchObject({ price_per_day: 59, seats: 7, name: 'Skoda Octavia (Anatolia)' });
    await expect
      .poll(() => table.locator('tbody tr', { hasText: 'Skoda Octavia (Anatolia)' }).textContent())
      .toContain(usd(59));
    expectNoPageErrors(a);
    await a.context.close();
  });

  it("bookings: upcoming and all are the API's; cancelling shows the score change before confirming", async () => {
    const a = await openPortal('/vendor/bookings');
    const { page } = a;
    await page.getByRole('heading', { level: 1, name: 'Bookings on my vehicles' }).waitFor();
    const table = page.getByRole('table', { name: 'Bookings on my vehicles' });
    const up = await asVendor<{ items: Booking[]; total: number }>('/rova-rental/v1/vendor/bookings');
    await expect
      .poll(() => table.locator('tbody tr td:first-child').allTextContents())
      .toEqual(up.items.map((b) => b.reference));
    await page.getByLabel('Period').selectOption('all');
    const all = await asVendor<{ items: Booking[]; total: number }>(
      '/rova-rental/v1/vendor/bookings?scope=all&per_page=20',
    );
    await page.getByText(new RegExp(`^${all.total} total`)).waitFor();
    await expect
      .poll(() => table.locator('tbody tr td:first-child').allTextContents())
      .toEqual(all.items.map((b) => b.reference));
    expect(page.url()).toContain('scope=all');
    const cost = await asVendor<{ reliability_score: number; reliability_score_after: number }>(
      '/rova-rental/v1/vendor/consequences?action=cancel',
    );
    await page.getByRole('button', { name: `Cancel booking ${up.items[0]!.reference}` }).click();
    await expect
      .poll(() => page.getByRole('alertdialog').getByTestId('consequence-score').textContent())
      .toBe(`Reliability score: ${scoreChange(cost.reliability_score, cost.reliability_score_after).text}`);
    await expectAxeClean(page, 'cancel dialog');
    await page.keyboard.press('Escape');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it("payouts: available and minimum are the API's; a request sends its own Idempotency-Key; an approved statement downloads as a PDF", async () => {
    const a = await openPortal('/vendor/payouts');
    const { page } = a;
    await page.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor();
    const s = await asVendor<Summary>('/rova-rental/v2/ledger/summary?per_page=1');
    expect(s.payouts.open_payout_id).toBeNull();
    await expect.poll(() => page.locator('[data-stat="Available"]').textContent()).toContain(usd(s.balances.available));
    await expect
      .poll(() => page.locator('[data-stat="Minimum payout"]').textContent())
      .toContain(usd(s.payouts.min_payout));
    const keys: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/rova-rental/v2/ledger/payouts'))
        keys.push(r.headers()['idempotency-key'] ?? '');
    });
    const amount = page.getByLabel('Amount (USD)');
    await amount.fill('99.99');
    await page.getByText(`The minimum payout is ${usd(s.payouts.min_payout)}.`).waitFor();
    expect(await page.getByRole('button', { name: 'Request payout' }).isDisabled()).toBe(true);
    await amount.fill('120.50');
    await page.getByRole('button', { name: 'Request payout' }).click();
    const dlg = page.getByRole('alertdialog');
    await dlg.getByText(usd(120.5)).first().waitFor();
    await expectAxeClean(page, 'payout confirmation');
    await dlg.getByRole('button', { name: `Request ${usd(120.5)}` }).click();
    await dlg.waitFor({ state: 'detached' });
    const payouts = await asVendor<{ items: Payout[]; total: number }>('/rova-rental/v2/ledger/payouts');
    expect(payouts.items[0]).toMatchObject({ amount: 120.5, status: 'requested' });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    const after = await asVendor<Summary>('/rova-rental/v2/ledger/summary?per_page=1');
    expect(after.balances.on_hold).toBe(s.balances.on_hold + 120.5);
    expect(after.payouts.open_payout_no).toBe(payouts.items[0]!.statement_no);
    await page.getByText(`Payout #${payouts.items[0]!.statement_no} is still open: one payout at a time.`).waitFor();
    await expect
      .poll(() => page.locator('[data-stat="Available"]').textContent())
      .toContain(usd(after.balances.available));

    // the platform approves it: the statement is a PDF with its PS number
    const approved = (
      await rig.api<{ data: { payout: Payout } }>(`/rova-rental/v2/payouts/${payouts.items[0]!.id}/approve`, {
        method: 'POST',
      })
    ).body.data.payout;
    expect(approved.statement_number).toMatch(/^PS-\d{4}-\d{4}$/);
    await page.reload();
    const table = page.getByRole('table', { name: 'Payout history' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(payouts.items.length);
    // each payout by the vendor's own number, newest first
    await expect
      .poll(() => table.locator('tbody tr td:first-child').allTextContents())
      .toEqual(payouts.items.map((p) => `#${p.statement_no}`));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download statement ${approved.statement_number} (PDF)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${approved.statement_number}.pdf`);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
    await expectAxeClean(page, 'vendor payouts');
    await screenshot(page, 'vendor-portal-payouts');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it("payout lines as CSV: the vendor logs in, opens Payouts and downloads the lines of its approved payout; the file is the API's statement lines, from the opening to the closing balance", async () => {
    // the payout approved by the test before, or one requested and approved here (run alone)
    let payout = (await asVendor<{ items: Payout[] }>('/rova-rental/v2/ledger/payouts?status=approved')).items[0];
    if (!payout) {
      const asked = await asVendor<{ payout: Payout }>('/rova-rental/v2/ledger/payouts', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'csv-test' },
        body: JSON.stringify({ amount: 100 }),
      });
      payout = (
        await rig.api<{ data: { payout: Payout } }>(`/rova-rental/v2/payouts/${asked.payout.id}/approve`, {
          method: 'POST',
        })
      ).body.data.payout;
    }
    const lines = await asVendor<{
      statement_no: number;
      opening_balance: number;
      closing_balance: number;
      lines: { description: string; net: number; balance: number; transaction_id: number }[];
    }>(`/rova-rental/v2/ledger/payouts/${payout.id}/lines`);
    expect(lines.statement_no).toBe(payout.statement_no);
    expect(lines.lines.length).toBeGreaterThan(0);

    const a = await openPortal('/');
    const { page } = a;
    await page.waitForURL(/\/admin\/vendor\/dashboard$/);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Payouts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download the lines of payout #${payout.statement_no} (CSV)` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${payout.statement_number}.csv`);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, ...records] = parse(text, { bom: true }) as string[][];
    const col = (r: string[], name: string) => r[header!.indexOf(name)]!;
    expect(col(records[0]!, 'type')).toBe('opening_balance');
    expect(col(records.at(-1)!, 'type')).toBe('closing_balance');
    const cents = (v: string | number) => Math.round(Number(v) * 100);
    expect(cents(col(records[0]!, 'balance'))).toBe(cents(lines.opening_balance));
    expect(cents(col(records.at(-1)!, 'balance'))).toBe(cents(lines.closing_balance));
    const body = records.slice(1, -1);
    expect(body.map((r) => [col(r, 'transaction_id'), col(r, 'description'), cents(col(r, 'net'))])).toEqual(
      lines.lines.map((l) => [String(l.transaction_id), l.description, cents(l.net)]),
    );
    // the file adds up on its own: opening + Σ net = closing, and the last line is this payout
    expect(body.reduce((s, r) => s + cents(col(r, 'net')), cents(col(records[0]!, 'balance')))).toBe(
      cents(col(records.at(-1)!, 'balance')),
    );
    expect(col(body.at(-1)!, 'description')).toBe(`Payout #${payout.statement_no}`);
    expect(cents(col(body.at(-1)!, 'net'))).toBe(-cents(payout.amount));
    expectNoPageErrors(a);
    await a.context.close();
  });

  it("reports: the vendor's own reports, one's detail with its history, a new one filed; profile: IBAN masked, change requested", async () => {
    const a = await openPortal('/vendor/reports');
    const { page } = a;
    await page.getByRole('heading', { level: 1, name: 'My reports' }).waitFor();
    const reports = await asVendor<{ items: { id: number; title: string; status_label: string }[]; total: number }>(
      '/rova-rental/v1/vendor/reports?status=all',
    );
    expect(reports.items.map((r) => r.title)).toContain('Van withdrawal penalty');
    const table = page.getByRole('table', { name: 'My reports' });
    await expect
      .poll(() => table.locator('tbody tr td:first-child').allTextContents())
      .toEqual(reports.items.map((r) => r.title));
    await page.getByRole('button', { name: 'Open report Van withdrawal penalty' }).click();
    const detail = await asVendor<{ status_label: string; description: string }>(
      `/rova-rental/v1/vendor/reports/${reports.items.find((r) => r.title === 'Van withdrawal penalty')!.id}`,
    );
    await expect.poll(() => page.getByTestId('report-status').textContent()).toBe(detail.status_label);
    await page.getByText(detail.description).waitFor();
    await expectAxeClean(page, 'vendor report');
    await page.keyboard.press('Escape');

    // file a report about one of its own vehicles: picked by name, never by id
    await page.getByRole('button', { name: 'New report' }).click();
    const form = page.getByRole('form', { name: 'New report' });
    await form.getByLabel('About').selectOption('vehicle');
    const picker = form.getByRole('combobox', { name: 'Vehicle' });
    await picker.fill('Corolla');
    await expect
      .poll(() =>
        form
          .getByRole('listbox', { name: 'Vehicle' })
          .getByRole('option')
          .locator('span:first-child')
          .allTextContents(),
      )
      .toEqual(['Toyota Corolla (Anatolia)']);
    await picker.press('Enter');
    await expect.poll(() => picker.inputValue()).toBe('Toyota Corolla (Anatolia)');
    await form.getByLabel('Title').fill('Wrong category');
    await form.getByLabel('What happened').fill('The car shows under economy in search results.');
    await expectAxeClean(page, 'new vendor report');
    await form.getByRole('button', { name: 'File report' }).click();
    await page.getByTestId('report-status').waitFor();
    const mine = await asVendor<{
      items: { id: number; title: string; context_type: string; context_id: number; status: string }[];
      total: number;
    }>('/rova-rental/v1/vendor/reports?status=all');
    const corolla = (await asVendor<{ items: Vehicle[] }>('/rova-rental/v1/vendor/vehicles')).items.find(
      (v) => v.name === 'Toyota Corolla (Anatolia)',
    )!;
    expect(mine.total).toBe(reports.total + 1);
    expect(mine.items.find((r) => r.title === 'Wrong category')).toMatchObject({
      context_type: 'vehicle',
      context_id: corolla.id,
      status: 'open',
    });
    await expect.poll(() => page.getByTestId('report-status').textContent()).toBe('Open');
    await page.keyboard.press('Escape');

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vendor profile' }).waitFor();
    const profile = await asVendor<{ iban_masked: string; account_holder: string }>('/rova-rental/v1/vendor/profile');
    expect(profile.iban_masked).toMatch(/^TR\*\* \*\*\*\* \d{4}$/);
    await expect.poll(() => page.locator('[data-field="IBAN"]').textContent()).toBe(profile.iban_masked);
    await page.getByLabel('New IBAN').fill('GB82 WEST 1234 5698 7654 32');
    await page.getByRole('button', { name: 'Request IBAN change' }).click();
    const pending = await (async () => {
      for (let i = 0; i < 50; i++) {
        const p = await asVendor<{ pending_iban_masked: string | null }>('/rova-rental/v1/vendor/profile');
        if (p.pending_iban_masked) return p.pending_iban_masked;
        await new Promise((r) => setTimeout(r, 100));
      }
      return null;
    })();
    expect(pending).toBe('GB** **** 5432');
    await expect.poll(() => page.getByTestId('pending-iban').textContent()).toBe(pending);
    const text = await page.locator('body').textContent();
    expect(text).not.toContain('TR330006100519786457841326');
    expect(text).not.toContain('GB82WEST12345698765432');
    expect(await page.getByLabel('New IBAN').inputValue()).toBe('');
    await expectAxeClean(page, 'vendor profile');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('a customer logs in, sees only "Become a vendor", applies with a PDF and sees the application pending', async () => {
    await rig.shop.t.platform.auth.createUser({
      login: 'would_be_vendor',
      email: 'would.be@example.test',
      role: 'customer',
      password: 'customer-password-2',
      displayName: 'Would Be',
    });
    const a = await openAdmin(rig);
    await loginAs(rig, a, { login: 'would_be_vendor', password: 'customer-password-2' });
    const { page } = a;
    await page.getByRole('heading', { level: 1, name: 'Become a vendor' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).getByRole('link').allTextContents()).toEqual([
      'Become a vendor',
    ]);
    const form = page.getByRole('form', { name: 'Vendor application' });
    await form.getByRole('button', { name: 'Apply' }).click();
    await form.getByText('An identity document is required').waitFor();
    await form.getByText('Accept the vendor terms to apply').waitFor();
    await form.getByLabel('Phone').fill('+90 532 555 0199');
    await form.getByLabel('City').fill('Bodrum');
    await form.getByLabel('Account holder').fill('Would Be');
    await form.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await form.getByLabel('Tax office').fill('Bodrum');
    await form.getByLabel('Tax number').fill('1234567890');
    await form.getByLabel('Service areas').fill('Bodrum, Milas');
    await form.getByLabel('About your fleet').fill('Two convertibles by the marina.');
    await form
      .getByLabel('Identity document (required)')
      .setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: PDF });
    await form.getByLabel(/I accept the vendor terms/).check();
    await expectAxeClean(page, 'vendor application form');
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => page.getByTestId('application-status').textContent())
      .toBe('Submitted — waiting for the platform to review it');
    await page.getByText('DE** **** 3000').waitFor();
    const apps = (
      await rig.api<{ data: { items: { applicant_email: string; status: string; city: string }[] } }>(
        '/rova-rental/v1/vendor-management/applications?search=would.be',
      )
    ).body.data.items;
    expect(apps).toMatchObject([{ applicant_email: 'would.be@example.test', status: 'pending', city: 'Bodrum' }]);
    expect(await page.getByRole('form', { name: 'Vendor application' }).count()).toBe(0);
    expectNoPageErrors(a);
    await a.context.close();
  });
});
