import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VENDOR_LOGIN, DEMO_VENDOR_PASSWORD } from '../../../src/modules/rental/seed/marketplace.js';
import { APPLY_FIELDS, multipart, PDF } from '../../rental/market/helpers.js';
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

// The operator's review queue (issue 35): the demo vendor Anatolia Cars submits two new vehicles and a customer
// applies with a PDF; the operator works the queue from the dashboard; the vendor reads the rejection in the portal.
let rig: AdminRig;
let vendorKey = '';
const GOOD = 'Dacia Jogger Extreme';
const BAD = 'Renault Kangoo Maxi';
const REASON = 'The photos show another car: send the ones of this vehicle.';
let goodId = 0;
let badId = 0;
let applicationId = 0;
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-review-'));

interface Queue {
  vehicles: number;
  applications: number;
  total: number;
}

beforeAll(async () => {
  rig = await startAdminRig({ DATA_DIR: dataDir });
  const t = rig.shop.t;
  const u = (await t.platform.auth.findUser(DEMO_VENDOR_LOGIN))!;
  vendorKey = (await t.platform.auth.createApiKey({ userId: u.id, scopes: ['read', 'write'] })).key;
  const submit = async (name: string, price: number) =>
    (
      await rental<{ id: number }>(rig, '/rova-rental/v1/vendor/vehicles', {
        method: 'POST',
        headers: { 'x-rova-api-key': vendorKey },
        body: JSON.stringify({
          name,
          price_per_day: price,
          brand: name.split(' ')[0],
          model: name.split(' ')[1],
          seats: 5,
        }),
      })
    ).id;
  goodId = await submit(GOOD, 48.5);
  badId = await submit(BAD, 39);
  const h = { 'x-rova-api-key': (await t.userWithKey('customer', ['read', 'write'], 'reviewapplicant')).key };
  const m = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'passport.pdf', data: PDF }]);
  const r = await t.inject({
    method: 'POST',
    url: '/wp-json/rova-rental/v1/vendor/application',
    headers: { ...h, ...m.headers },
    payload: m.payload,
  });
  expect(r.statusCode, r.body).toBe(201);
  applicationId = (JSON.parse(r.body) as { data: { id: number } }).data.id;
});
afterAll(async () => {
  await rig?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const searchIds = async (q: string) =>
  (
    await rental<{ items: { vehicle_id: number }[] }>(rig, `/rova-rental/v2/vehicles/search?q=${encodeURIComponent(q)}`)
  ).items.map((x) => x.vehicle_id);

describe('review queue (issue 35)', () => {
  it("operator: dashboard count → Review → a vendor's new vehicle → Approve (then found by search); reject with a reason; an application's document downloads", async () => {
    const queue = await rental<Queue>(rig, '/rova-rental/v1/vendor-management/review-queue');
    expect(queue.vehicles).toBeGreaterThanOrEqual(2);
    expect(queue.applications).toBeGreaterThanOrEqual(1);
    expect(await searchIds(GOOD)).toEqual([]);

    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/' });
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await expect
      .poll(() => page.getByTestId('review-waiting').textContent())
      .toContain(`${queue.total} waiting for review`);

    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Review' }).click();
    await page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
    await page.getByRole('link', { name: `Vehicles (${queue.vehicles})` }).waitFor();
    await page.getByText(`${queue.vehicles} total`).waitFor();

    // the vehicle's detail: its price and vendor, as the API has them
    await page.getByRole('button', { name: GOOD }).click();
    const panel = page.getByRole('dialog', { name: GOOD });
    await expect.poll(() => panel.locator('[data-field="Per day"]').textContent()).toBe(usd(48.5));
    expect(await panel.locator('[data-field="Vendor"]').textContent()).toContain('Anatolia');
    await expectAxeClean(page, 'review vehicle detail');
    await screenshot(page, 'review-vehicle');
    await panel.getByRole('button', { name: `Approve ${GOOD}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('button', { name: GOOD }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: `Vehicles (${queue.vehicles - 1})` }).waitFor();
    expect(
      (await rental<{ lifecycle: string }>(rig, `/rova-rental/v1/vendor-management/vehicles/${goodId}`)).lifecycle,
    ).toBe('active');
    // listed: a customer's search finds it now
    await expect.poll(() => searchIds(GOOD)).toEqual([goodId]);

    // reject: the reason is required
    await page.getByRole('button', { name: BAD }).click();
    const bad = page.getByRole('dialog', { name: BAD });
    await bad.getByRole('button', { name: `Reject ${BAD}` }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.getByText('A reason is required.').waitFor();
    await dialog.getByLabel('Reason (the vendor reads it)').fill(REASON);
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('button', { name: BAD }).waitFor({ state: 'detached' });
    expect(await rental(rig, `/rova-rental/v1/vendor-management/vehicles/${badId}`)).toMatchObject({
      lifecycle: 'rejected',
      review_reason: REASON,
    });

    // applications: the detail shows the masked IBAN and tax details; the document downloads
    await page.getByRole('link', { name: /^Applications \(\d+\)$/ }).click();
    const app = await rental<{ applicant_name: string; iban_masked: string; tax_number: string }>(
      rig,
      `/rova-rental/v1/vendor-management/applications/${applicationId}`,
    );
    await page.getByRole('button', { name: app.applicant_name }).click();
    const ap = page.getByRole('dialog', { name: `Application of ${app.applicant_name}` });
    await expect.poll(() => ap.locator('[data-field="IBAN"]').textContent()).toBe(app.iban_masked);
    expect(app.iban_masked).toMatch(/^\w\w\*\* \*\*\*\* \d{4}$/);
    expect(await ap.locator('[data-field="Tax number"]').textContent()).toBe(app.tax_number || '—');
    // Open: a new tab shows the file the app fetched (with the nonce) as a blob; its bytes are checked by Download
    // below (the admin's CSP keeps a page script from reading a blob: URL back)
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      ap.getByRole('button', { name: 'Open ID Document' }).click(),
    ]);
    await expect.poll(() => tab.url()).toMatch(/^blob:/);
    await tab.close();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      ap.getByRole('button', { name: 'Download ID Document' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^document-\d+\.pdf$/);
    expect(readFileSync((await download.path())!).equals(PDF)).toBe(true);
    await expectAxeClean(page, 'review application detail');
    expectNoPageErrors(a);
    await a.context.close();
  }, 240_000);

  it('the vendor logs in and reads the rejection and its reason under My vehicles', async () => {
    const a = await openAdmin(rig);
    const { page } = a;
    await loginAs(rig, a, { path: '/', login: DEMO_VENDOR_LOGIN, password: DEMO_VENDOR_PASSWORD });
    await page.getByRole('heading', { level: 1, name: 'Vendor dashboard' }).waitFor();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'My vehicles' }).click();
    await page.getByRole('heading', { level: 1, name: 'My vehicles' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: BAD });
    await expect.poll(() => row.locator('[data-lifecycle]').getAttribute('data-lifecycle')).toBe('rejected');
    expect(await row.getByTestId('review-reason').textContent()).toBe(`Reason: ${REASON}`);
    expect(await row.locator('[data-lifecycle]').textContent()).toContain('Not approved');
    const listed = page.getByRole('row').filter({ hasText: GOOD });
    expect(await listed.locator('[data-lifecycle]').textContent()).toBe('Listed');
    expectNoPageErrors(a);
    await a.context.close();
  }, 120_000);
});
