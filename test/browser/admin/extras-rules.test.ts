import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAxeClean, expectNoPageErrors, loginAs, openAdmin, startAdminRig, type AdminRig } from './helpers.js';

// Extras (issue 36.3): an operator makes an add-on rule with its charge and maximum in the pricing-rules screen.

let rig: AdminRig;
beforeAll(async () => {
  rig = await startAdminRig();
});
afterAll(async () => {
  await rig?.close();
});

type Row = { id: number } & Record<string, unknown>;

describe('admin pricing rules: extras', () => {
  it('an add-on rule with per-day charge and a maximum: created through the form, listed with both', async () => {
    const a = await openAdmin(rig);
    await loginAs(rig, a, { path: '/pricing-rules' });
    const { page } = a;
    await page.goto(`${rig.shop.origin}/admin/pricing-rules`);
    await page.getByRole('heading', { level: 1, name: 'Pricing rules' }).waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Booster seat');
    await dialog.getByLabel('Kind').selectOption('addon');
    await dialog.getByLabel('Amount').fill('4');
    await dialog.getByLabel('Charge').selectOption('per_day');
    await dialog.getByLabel('Code', { exact: true }).fill('booster_seat');
    await dialog.getByLabel('Maximum per booking').fill('2');
    await expectAxeClean(page, 'add-on rule form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    const rules = (await rig.api<{ data: { items: Row[] } }>('/rova-rental/v1/pricing-rules?per_page=100&kind=addon'))
      .body.data.items;
    expect(rules.find((r) => r.code === 'booster_seat')).toMatchObject({
      name: 'Booster seat',
      kind: 'addon',
      amount: 4,
      charge: 'per_day',
      max_per_day: 2,
    });
    const row = page.getByRole('row', { name: /Booster seat/ });
    await expect.poll(() => row.textContent()).toMatch(/4\.00 \/ day \(max 2\)/);
    expectNoPageErrors(a);
    await a.context.close();
  });
});
