import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAxeClean,
  expectNoPageErrors,
  loginAs,
  openAdmin,
  screenshot,
  startAdminRig,
  type AdminRig,
} from './helpers.js';

// The rate sources are the outside world: a local server that answers 503 to both, so "Sync now" fails with one
// attempt per source (the 502 body) and the screen must list them.

let rig: AdminRig;
let sources: Server;
beforeAll(async () => {
  sources = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain' });
    res.end('down for maintenance');
  });
  await new Promise<void>((r) => sources.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;
  rig = await startAdminRig({ FX_EXCHANGERATE_API_URL: `${base}/v4`, FX_ECB_URL: `${base}/ecb.xml` });
});
afterAll(async () => {
  await rig?.close();
  await new Promise((r) => sources?.close(r));
});

interface Currencies {
  base_currency: string;
  currencies: {
    code: string;
    enabled: boolean;
    rate: { type: string; value: number };
    fee: { type: string; value: number };
  }[];
}

describe('admin currency screen', () => {
  it('shows the API currencies and preview, saves settings and a fee, lists per-source sync errors', async () => {
    const cur = (await rig.api<Currencies>('/rova-fx/v1/currencies')).body;
    const preview = (await rig.api<{ rates: { code: string; effective_rate: number }[] }>('/rova-fx/v1/rates/preview'))
      .body;
    expect(cur.currencies.length).toBeGreaterThan(1);

    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/currency' });
    const { page } = a;
    await page.goto(`${rig.shop.origin}/admin/currency`);
    await page.getByRole('heading', { level: 1, name: 'Currency' }).waitFor();
    const table = page.getByRole('table', { name: 'Currencies' });
    await table.locator('tbody tr').first().waitFor();
    expect(await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')))).toEqual(
      cur.currencies.map((c) => c.code),
    );
    for (const c of cur.currencies)
      expect(Number(await page.getByLabel(`${c.code} rate`, { exact: true }).inputValue())).toBe(c.rate.value);
    const prev = page.getByRole('table', { name: 'Rate preview' });
    await prev.locator('tbody tr').first().waitFor();
    expect(
      await prev
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-code'), r.children[2]?.textContent])),
    ).toEqual(preview.rates.map((r) => [r.code, String(r.effective_rate)]));

    // Save a fee on the first non-base currency.
    const target = cur.currencies.find((c) => c.code !== cur.base_currency)!;
    await page.getByLabel(`${target.code} fee type`).selectOption('percentage');
    await page.getByLabel(`${target.code} fee`, { exact: true }).fill('2.5');
    const feeSaved = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/rova-fx/v1/currencies'),
    );
    await page.getByRole('button', { name: 'Save currencies' }).click();
    await feeSaved;
    await expect
      .poll(
        async () =>
          (await rig.api<Currencies>('/rova-fx/v1/currencies')).body.currencies.find((c) => c.code === target.code)
            ?.fee,
      )
      .toEqual({ type: 'percentage', value: 2.5 });

    // A value the API refuses (a negative rounding step is stored as 0 and reported in `adjustments`) is a red
    // message on that field, never a "saved" toast. Every control is labelled (visible label + the row's code).
    const saves: { adjustments: { code: string; field: string; reason: string; value: unknown }[] }[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && r.url().endsWith('/rova-fx/v1/currencies'))
        void r.json().then((b: (typeof saves)[number]) => saves.push(b));
    });
    // the fee's own "saved" toast goes first (it shows for 5 s once its answer is in; a click dismisses it), so any
    // toast after this is the refusal's
    const toasts = page.getByText(/^(Currencies|Settings) saved/);
    await toasts.first().waitFor();
    for (const t of await toasts.all()) await t.click().catch(() => undefined);
    await expect.poll(() => toasts.count()).toBe(0);
    const roundingTo = page.getByLabel(`${target.code} rounding to`, { exact: true });
    expect(
      await page
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: target.code, exact: true }) })
        .getByText('rounding to', { exact: true })
        .isVisible(),
    ).toBe(true);
    await roundingTo.fill('-1');
    await page.getByRole('button', { name: 'Save currencies' }).click();
    const refused = page.locator(`[data-refused="${target.code} rounding to"]`);
    await refused.waitFor();
    await expect.poll(() => saves.length).toBe(1);
    expect(saves[0]!.adjustments).toEqual([
      { code: target.code, field: 'rounding_value', reason: 'negative', value: 0 },
    ]);
    expect(await refused.textContent()).toBe('Refused: must not be negative (saved as 0).');
    expect(await refused.getAttribute('class')).toContain('text-red-700');
    expect(await roundingTo.getAttribute('aria-invalid')).toBe('true');
    expect(await roundingTo.getAttribute('aria-describedby')).toBe(await refused.getAttribute('id'));
    expect(await page.getByTestId('currencies-error').textContent()).toBe(
      'One value was refused — see the marked fields.',
    );
    expect(await toasts.count()).toBe(0);
    await expectAxeClean(page, 'currency with a refused value');

    // Settings round-trip.
    await page.getByLabel('Rate update interval').selectOption('daily');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(
        async () => (await rig.api<{ rate_update_interval: string }>('/rova-fx/v1/settings')).body.rate_update_interval,
      )
      .toBe('daily');

    // Sync now: every source failed; the screen lists the same sources the API's 502 names.
    const truth = await rig.api<{ data: { attempts: { source: string; error: string }[] } }>('/rova-fx/v1/rates/sync', {
      method: 'POST',
    });
    expect(truth.status).toBe(502);
    await page.getByRole('button', { name: 'Sync now' }).click();
    const err = page.getByTestId('sync-error');
    await err.locator('li').first().waitFor();
    expect(await err.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-source')))).toEqual(
      truth.body.data.attempts.map((x) => x.source),
    );

    await expectAxeClean(page, 'currency');
    await screenshot(page, 'currency');
    expectNoPageErrors(a);
    await a.context.close();
  });
});
