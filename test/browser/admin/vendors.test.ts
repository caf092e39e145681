import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLY_FIELDS, GOOD_IBAN, multipart, PDF } from '../../rental/market/helpers.js';
import {
  type AdminPage,
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  screenshot,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

// The demo data has three vendors (one suspended), a pending application, an open penalty appeal and a pending
// payout of Bosphorus Rent. On top, two customers apply (the outside world's documents are a tiny PDF) and the
// administrator approves one through the API, so the lists mix demo rows with rows the test made.
let rig: AdminRig;
const dataDir = mkdtempSync(path.join(tmpdir(), 'rova-admin-vendors-'));
beforeAll(async () => {
  rig = await startAdminRig({ DATA_DIR: dataDir });
  const t = rig.shop.t;
  const ids: number[] = [];
  for (const i of [0, 1]) {
    const h = { 'x-rova-api-key': (await t.userWithKey('customer', ['read', 'write'], `applicant${i}`)).key };
    const m = multipart(APPLY_FIELDS, [{ field: 'document_id', name: 'passport.pdf', data: PDF }]);
    const r = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-rental/v1/vendor/application',
      headers: { ...h, ...m.headers },
      payload: m.payload,
    });
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
    const pending = (
      await rig.api<Page_<{ id: number; applicant_name: string; status: string }>>(
        '/rova-rental/v1/vendor-management/applications?per_page=20',
      )
    ).body.data;
    const a = await open_(await openAdmin(rig), '/vendors/applications');
    const { page } = a;
    await total(a, pending.total);
    const names = await page
      .getByRole('table', { name: 'Applications' })
      .locator('tbody tr td:first-child')
      .allTextContents();
    expect(names).toEqual(pending.items.map((x) => x.applicant_name));
    expect(pending.items.filter((x) => x.status === 'pending').length).toBeGreaterThan(0);
    {
      const first = pending.items.find((x) => x.status === 'pending')!;
      await page.getByRole('button', { name: `Reject ${first.applicant_name}` }).click();
      const dlg = page.getByRole('alertdialog');
      await dlg.getByRole('button', { name: 'Reject' }).click();
      await dlg.getByText('A reason is required.').waitFor();
      await expectAxeClean(page, 'reject dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: `Approve ${first.applicant_name}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await expect
        .poll(
          async () =>
            (
              await rig.api<Page_<{ id: number; status: string }>>(
                '/rova-rental/v1/vendor-management/applications?status=all&per_page=100',
              )
            ).body.data.items.find((x) => x.id === first.id)?.status,
        )
        .toBe('approved');
      await total(a, pending.total - 1);
    }
    await expectAxeClean(page, 'applications');
    await screenshot(page, 'vendor-applications');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('vendors: list and status filter from the API, suspend and unsuspend with confirmation', async () => {
    const all = (
      await rig.api<Page_<{ id: number; display_name: string; status: string }>>(
        '/rova-rental/v1/vendor-management/vendors?status=all&per_page=20',
      )
    ).body.data;
    expect(all.total).toBeGreaterThan(0);
    const a = await open_(await openAdmin(rig), '/vendors/list');
    const { page } = a;
    await total(a, all.total);
    expect(
      await page.getByRole('table', { name: 'Vendors' }).locator('tbody tr td:first-child').allTextContents(),
    ).toEqual(all.items.map((v) => v.display_name));
    const v = all.items.find((x) => x.status === 'active')!;
    await page.getByRole('button', { name: `Suspend ${v.display_name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Suspend' }).click();
    await page.getByRole('button', { name: `Unsuspend ${v.display_name}` }).waitFor();
    const suspended = (
      await rig.api<Page_<{ id: number }>>('/rova-rental/v1/vendor-management/vendors?status=suspended&per_page=100')
    ).body.data;
    expect(suspended.items.map((x) => x.id)).toContain(v.id);
    await page.getByLabel('Status').selectOption('suspended');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('suspended');
    await total(a, suspended.total);
    await page.getByRole('button', { name: `Unsuspend ${v.display_name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unsuspend' }).click();
    await expect
      .poll(async () =>
        (
          await rig.api<Page_<{ id: number }>>('/rova-rental/v1/vendor-management/vendors?status=active&per_page=100')
        ).body.data.items.map((x) => x.id),
      )
      .toContain(v.id);
    // Detail: masked IBAN and statistics as the API gives them; the clear IBAN never reaches the page.
    const detail = (
      await rig.api<{
        data: { iban_masked: string; statistics: { reliability_score: number; vehicle_count: number } };
      }>(`/rova-rental/v1/vendor-management/${v.id}`)
    ).body.data;
    await page.getByLabel('Status').selectOption({ label: 'All' });
    await page.getByRole('button', { name: `Details of ${v.display_name}` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('vendor')).toBe(String(v.id));
    const dlg = page.getByRole('dialog');
    await expect.poll(() => dlg.locator('[data-field="IBAN"]').textContent()).toBe(detail.iban_masked);
    expect(await dlg.getByTestId('vendor-stats').locator('[data-field="Reliability score"]').textContent()).toBe(
      String(detail.statistics.reliability_score),
    );
    expect(await dlg.getByTestId('vendor-stats').locator('[data-field="Vehicles"]').textContent()).toBe(
      String(detail.statistics.vehicle_count),
    );
    await dlg.getByTestId('vendor-audit').or(dlg.getByText('No entries.')).first().waitFor();
    expect(await page.content()).not.toContain(GOOD_IBAN);
    await expectAxeClean(page, 'vendor detail');
    await page.keyboard.press('Escape');
    await expectAxeClean(page, 'vendors');
    await screenshot(page, 'vendors');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('payouts: the API list with amounts in their currency; the demo payout approved through the UI', async () => {
    const list = (
      await rig.api<
        Page_<{
          id: number;
          amount: number;
          currency: string;
          status: string;
          vendor_name: string;
          statement_no: number;
        }>
      >('/rova-rental/v2/payouts?per_page=20')
    ).body.data;
    expect(list.total).toBeGreaterThan(0);
    const a = await open_(await openAdmin(rig), '/vendors/payouts');
    const { page } = a;
    await total(a, list.total);
    if (list.items.length > 0) {
      const ids = await page
        .getByRole('table', { name: 'Payouts' })
        .locator('tbody tr td:first-child')
        .allTextContents();
      // named as a person names them: the vendor and the vendor's payout number, never the global id
      expect(ids).toEqual(list.items.map((p) => `${p.vendor_name} #${p.statement_no}`));
      const amounts = await page
        .getByRole('table', { name: 'Payouts' })
        .locator('tbody tr td:nth-child(3)')
        .allTextContents();
      expect(amounts).toEqual(
        list.items.map((p) =>
          new Intl.NumberFormat('en-US', { style: 'currency', currency: p.currency }).format(p.amount),
        ),
      );
      // the demo's pending payout: a rejection needs a reason; then it is approved through the UI
      const req = list.items.find((p) => p.status === 'requested' && p.vendor_name.startsWith('Bosphorus Rent'));
      expect(req, 'demo pending payout of Bosphorus Rent').toBeDefined();
      expect(req!.amount).toBe(250);
      await page.getByRole('button', { name: `Reject payout ${req!.vendor_name} #${req!.statement_no}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Reject' }).click();
      await page.getByRole('alertdialog').getByText('A reason is required.').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: `Approve payout ${req!.vendor_name} #${req!.statement_no}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await expect
        .poll(
          async () =>
            (
              await rig.api<Page_<{ id: number; status: string }>>('/rova-rental/v2/payouts?status=all&per_page=100')
            ).body.data.items.find((p) => p.id === req!.id)?.status,
        )
        .toBe('approved');
      await page
        .getByRole('button', { name: `Approve payout ${req!.vendor_name} #${req!.statement_no}` })
        .waitFor({ state: 'detached' });
      // the approved payout's statement: the PDF the vendor downloads too
      const approved = (
        await rig.api<Page_<{ id: number; statement_number: string | null }>>(
          '/rova-rental/v2/payouts?status=all&per_page=100',
        )
      ).body.data.items.find((p) => p.id === req!.id)!;
      expect(approved.statement_number).toMatch(/^PS-\d{4}-\d{4}$/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download statement ${approved.statement_number} (PDF)` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${approved.statement_number}.pdf`);
      // the row shows the statement number next to the payout's name
      await page
        .getByRole('table', { name: 'Payouts' })
        .getByRole('row', {
          name: new RegExp(`${req!.vendor_name} #${req!.statement_no} ${approved.statement_number}`),
        })
        .waitFor();
      expect(
        readFileSync(await download.path())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
    await expectAxeClean(page, 'payouts');
    await screenshot(page, 'vendor-payouts');
    expectNoPageErrors(a);
    await a.context.close();
  });
  it('reports: the open penalty appeal from the API, resolved in the slide-over; side effect as the API says', async () => {
    interface Report {
      id: number;
      title: string;
      vendor_id: number;
      context_type: string;
      status: string;
    }
    const open = (await rig.api<Page_<Report>>('/rova-rental/v1/vendor-reports?per_page=20')).body.data;
    const appeal = open.items.find((r) => r.context_type === 'penalty' && r.status === 'open');
    expect(appeal, 'demo open penalty appeal').toBeDefined();
    const a = await open_(await openAdmin(rig), '/vendors/reports');
    const { page } = a;
    await total(a, open.total);
    const table = page.getByRole('table', { name: 'Vendor reports' });
    expect(await table.locator('tbody tr td:first-child').allTextContents()).toEqual(open.items.map((r) => `#${r.id}`));
    expect(await table.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual(open.items.map((r) => r.title));
    // the context filter lives in the URL and asks the API
    const penalties = (await rig.api<Page_<Report>>('/rova-rental/v1/vendor-reports?context_type=penalty&per_page=20'))
      .body.data;
    await page.getByLabel('Context').selectOption('penalty');
    await expect.poll(() => new URL(page.url()).searchParams.get('context_type')).toBe('penalty');
    await total(a, penalties.total);

    const detail = (
      await rig.api<{ data: { description: string; audit: { action: string }[] } }>(
        `/rova-rental/v1/vendor-reports/${appeal!.id}`,
      )
    ).body.data;
    await page.getByRole('button', { name: `Open report ${appeal!.id}` }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('report')).toBe(String(appeal!.id));
    const dlg = page.getByRole('dialog', { name: `Report #${appeal!.id}` });
    await expect.poll(() => dlg.getByTestId('report-description').textContent()).toBe(detail.description);
    expect(await dlg.getByTestId('report-audit').locator('li').count()).toBe(detail.audit.length);
    await expectAxeClean(page, 'vendor report detail');
    await screenshot(page, 'vendor-reports');

    await dlg.getByRole('button', { name: 'Resolve' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByLabel('Note to the vendor (optional)').fill('Hail damage confirmed by the insurer.');
    await confirm.getByRole('button', { name: 'Resolve' }).click();
    await confirm.waitFor({ state: 'detached' });
    const outcome = await dlg.getByTestId('report-outcome').textContent();

    // the truth from the API: resolved with the note; a second decision is refused (409) and tells the side effect it had
    const after = (
      await rig.api<{ data: { status: string; admin_note: string | null; audit: { action: string }[] } }>(
        `/rova-rental/v1/vendor-reports/${appeal!.id}`,
      )
    ).body.data;
    expect(after.status).toBe('resolved');
    expect(after.admin_note).toBe('Hail damage confirmed by the insurer.');
    expect(after.audit.map((e) => e.action)).toContain('resolved');
    expect(
      (await rig.api(`/rova-rental/v1/vendor-reports/${appeal!.id}/reject`, { method: 'POST', body: '{}' })).status,
    ).toBe(409);
    // a penalty appeal upheld reverses the penalty: the vendor's audit log shows it with the amount the UI named
    expect(outcome).toMatch(/^Report resolved — penalty reversed \(.+\)$/);
    const vendorAudit = (
      await rig.api<Page_<{ event_type: string; amount: number | null; currency: string }>>(
        `/rova-rental/v1/vendor-management/${appeal!.vendor_id}/audit-log?per_page=50`,
      )
    ).body.data.items;
    const reversal = vendorAudit.find((e) => /revers/.test(e.event_type) && e.amount !== null);
    expect(reversal, JSON.stringify(vendorAudit.map((e) => e.event_type))).toBeDefined();
    expect(outcome).toContain(
      new Intl.NumberFormat('en-US', { style: 'currency', currency: reversal!.currency }).format(
        Math.abs(reversal!.amount!),
      ),
    );
    await dlg.getByRole('button', { name: 'Resolve' }).waitFor({ state: 'detached' });
    await expect.poll(() => dlg.locator('[data-field="Status"]').textContent()).toBe('Resolved');
    await page.keyboard.press('Escape');
    await total(a, penalties.total - 1);
    await page.getByLabel('Status').selectOption('all');
    await total(
      a,
      (await rig.api<Page_<Report>>('/rova-rental/v1/vendor-reports?status=all&context_type=penalty&per_page=20')).body
        .data.total,
    );
    await expectAxeClean(page, 'vendor reports');
    expectNoPageErrors(a);
    await a.context.close();
  });

  it('vendor detail: the reliability score history as the API gives it', async () => {
    const vendors = (
      await rig.api<Page_<{ id: number; display_name: string }>>(
        '/rova-rental/v1/vendor-management/vendors?status=all&per_page=50',
      )
    ).body.data.items;
    const anatolia = vendors.find((v) => v.display_name.startsWith('Anatolia Cars'))!;
    const history = (
      await rig.api<{
        data: { score_history: { event_type: string; score_before: number; score_after: number; delta: number }[] };
      }>(`/rova-rental/v1/vendor-management/${anatolia.id}`)
    ).body.data.score_history;
    expect(history.length).toBeGreaterThan(0);
    // a deep link straight to the open detail: the slide-over (modal) is what the page shows
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: `/vendors/list?status=all&vendor=${anatolia.id}` });
    await a.page.goto(`${rig.shop.origin}/admin/vendors/list?status=all&vendor=${anatolia.id}`);
    const rows = a.page
      .getByRole('dialog', { name: 'Anatolia Cars' })
      .getByTestId('vendor-score-history')
      .locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(history.length);
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll('td'))
          .slice(1, 4)
          .map((td) => td.textContent),
      ),
    );
    expect(cells).toEqual(
      history.map((h) => [
        String(h.score_before),
        String(h.score_after),
        h.delta > 0 ? `+${h.delta}` : String(h.delta),
      ]),
    );
    expect(await rows.first().locator('td').first().textContent()).toContain(history[0]!.event_type);
    await expectAxeClean(a.page, 'vendor score history');
    expectNoPageErrors(a);
    await a.context.close();
  });
});

async function open_(a: AdminPage, path: string): Promise<AdminPage> {
  await open(a, path);
  return a;
}
