import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLY_FIELDS, GOOD_IBAN, multipart, PDF } from '../../rental/market/helpers.js';
import { type AdminPage, expectAxeClean, expectNoPageErrors, loginAs, openAdmin, screenshot, startAdminRig, type AdminRig } from './helpers.js';

// The demo data has no vendors: two customers apply (the outside world's documents are a tiny PDF); the
// administrator approves one through the API, so the screen has one vendor and one pending application.
let rig: AdminRig;
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-admin-vendors-'));
beforeAll(async () => {
  rig = await startAdminRig({ DATA_DIR: dataDir });
  const t = rig.shop.t;
  const ids: number[] = [];
  for (const i of [0, 1]) {
    const h = { 'x-rova-api-key': (await t.userWithKey('customer', ['read', 'write'], `applicant${i}`)).key };
    const m = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'passport.pdf', data: PDF }]);
    const r = await t.inject({ method: 'POST', url: '/wp-json/rova-rental/v1/vendor/application', headers: { ...h, ...m.headers }, payload: m.payload });
    expect(r.statusCode, r.body).toBe(201);
    ids.push((JSON.parse(r.body) as { data: { id: number } }).data.id);
  }
  expect((await rig.api(`/rova-rental/v1/vendor-management/${ids[1]}/approve`, { method: 'POST' })).status).toBe(200);
});
afterAll(async () => {
  await rig?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Page_<T> {
  data: { items: T[]; total: number };
}

async function open(a: AdminPage, path: string) {
  await loginAs(rig, a, { path });
  await a.page.goto(`${rig.shop.origin}/admin${path}`);
  await a.page.getByRole('heading', { level: 1, name: 'Vendors' }).waitFor();
}
const total = (a: AdminPage, n: number) => a.page.getByText(new RegExp(`^${n} total`)).waitFor();

describe('admin vendors screen', () => {
  it('applications: the API list; reject needs a reason; approve round-trip', async () => {
    const pending = (await rig.api<Page_<{ id: number; applicant_name: string; status: string }>>('/rova-rental/v1/vendor-management/applications?per_page=20')).body.data;
    const a = await open_(await openAdmin(rig), '/vendors/applications');
    const { page } = a;
    await total(a, pending.total);
    const names = await page.getByRole('table', { name: 'Applications' }).locator('tbody tr td:first-child').allTextContents();
    expect(names).toEqual(pending.items.map((x) => x.applicant_name));
    expect(pending.items.filter((x) => x.status === 'pending').length).toBeGreaterThan(0);
    {
      const first = pending.items.find((x) => x.status === 'pending')!;
      await page.getByRole('button', { name: `Reject ${first.applicant_name}` }).click();
      const dlg = page.getByRole('dialog');
      await dlg.getByRole('button', { name: 'Reject' }).click();
      await dlg.getByText('A reason is required.').waitFor();
      await expectAxeClean(page, 'reject dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: `Approve ${first.applicant_name}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await rig.api<Page_<{ id: number; status: string }>>('/rova-rental/v1/vendor-management/applications?status=all&per_page=100')).body.data.items.find((x) => x.id === first.id)?.status)
        .toBe('approved');
      await total(a, pending.total - 1);
    }
    await expectAxeClean(page, 'applications');
    await screenshot(page, 'vendor-applications');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('vendors: list and status filter from the API, suspend and unsuspend with confirmation', async () => {
    const all = (await rig.api<Page_<{ id: number; display_name: string; status: string }>>('/rova-rental/v1/vendor-management/vendors?per_page=20')).body.data;
    expect(all.total).toBeGreaterThan(0);
    const a = await open_(await openAdmin(rig), '/vendors/list');
    const { page } = a;
    await total(a, all.total);
    expect(await page.getByRole('table', { name: 'Vendors' }).locator('tbody tr td:first-child').allTextContents()).toEqual(all.items.map((v) => v.display_name));
    const v = all.items.find((x) => x.status === 'active')!;
    await page.getByRole('button', { name: `Suspend ${v.display_name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('button', { name: `Unsuspend ${v.display_name}` }).waitFor();
    const suspended = (await rig.api<Page_<{ id: number }>>('/rova-rental/v1/vendor-management/vendors?status=suspended&per_page=100')).body.data;
    expect(suspended.items.map((x) => x.id)).toContain(v.id);
    await page.getByLabel('Status').selectOption('suspended');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('suspended');
    await total(a, suspended.total);
    await page.getByRole('button', { name: `Unsuspend ${v.display_name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unsuspend' }).click();
    await expect
      .poll(async () => (await rig.api<Page_<{ id: number }>>('/rova-rental/v1/vendor-management/vendors?status=active&per_page=100')).body.data.items.map((x) => x.id))
      .toContain(v.id);
    // Detail: masked IBAN and statistics as the API gives them; the clear IBAN never reaches the page.
    const detail = (await rig.api<{ data: { iban_masked: string; statistics: { reliability_score: number; vehicle_count: number } } }>(`/rova-rental/v1/vendor-management/${v.id}`)).body.data;
    await page.getByLabel('Status').selectOption('all');
    await page.getByRole('button', { name: `Details of ${v.display_name}` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('vendor')).toBe(String(v.id));
    const dlg = page.getByRole('dialog');
    await expect.poll(() => dlg.locator('[data-field="IBAN"]').textContent()).toBe(detail.iban_masked);
    expect(await dlg.getByTestId('vendor-stats').locator('[data-field="Reliability score"]').textContent()).toBe(String(detail.statistics.reliability_score));
    expect(await dlg.getByTestId('vendor-stats').locator('[data-field="Vehicles"]').textContent()).toBe(String(detail.statistics.vehicle_count));
    await dlg.getByTestId('vendor-audit').or(dlg.getByText('No entries.')).first().waitFor();
    expect(await page.content()).not.toContain(GOOD_IBAN);
    await expectAxeClean(page, 'vendor detail');
    await page.keyboard.press('Escape');
    await expectAxeClean(page, 'vendors');
    await screenshot(page, 'vendors');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('payouts: the API list with amounts in their currency', async () => {
    const list = (await rig.api<Page_<{ id: number; amount: number; currency: string; status: string }>>('/rova-rental/v2/payouts?per_page=20')).body.data;
    const a = await open_(await openAdmin(rig), '/vendors/payouts');
    const { page } = a;
    await total(a, list.total);
    if (list.items.length > 0) {
      const ids = await page.getByRole('table', { name: 'Payouts' }).locator('tbody tr td:first-child').allTextContents();
      expect(ids).toEqual(list.items.map((p) => `#${p.id}`));
      const amounts = await page.getByRole('table', { name: 'Payouts' }).locator('tbody tr td:nth-child(3)').allTextContents();
      expect(amounts).toEqual(list.items.map((p) => new Intl.NumberFormat('en-US', { style: 'currency', currency: p.currency }).format(p.amount)));
      const req = list.items.find((p) => p.status === 'requested');
      if (req) {
        await page.getByRole('button', { name: `Reject payout ${req.id}` }).click();
        await page.getByRole('dialog').getByLabel('Reason').fill('Statement does not match');
        await page.getByRole('dialog').getByRole('button', { name: 'Reject' }).click();
        await expect
          .poll(async () => (await rig.api<Page_<{ id: number; status: string }>>('/rova-rental/v2/payouts?status=all&per_page=100')).body.data.items.find((p) => p.id === req.id)?.status)
          .toBe('rejected');
      }
    }
    await expectAxeClean(page, 'payouts');
    await screenshot(page, 'vendor-payouts');
    expectNoPageErrors(a);
    await a.context.close();
  });
});

async function open_(a: AdminPage, path: string): Promise<AdminPage> {
  await open(a, path);
  return a;
}
