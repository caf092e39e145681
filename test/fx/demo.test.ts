import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/app.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, FX, type Admin } from './helpers.js';

let t: TestApp;
let a: Admin;
beforeAll(async () => {
  t = await makeApp();
  await seedDemo(t.platform);
  a = await adminOf(t);
});
afterAll(async () => t?.close());

describe('demo seed', () => {
  it('EUR, GBP (fee), JPY (0 decimals), TRY (rounding), rates from the bundled snapshot; idempotent', async () => {
    const cur = (await a.get('/currencies')).json();
    expect(cur.currencies.map((c: { code: string }) => c.code)).toEqual(['EUR', 'GBP', 'JPY', 'TRY']);
    for (const c of cur.currencies) {
      expect(c.enabled).toBe(true);
      expect(c.rate.type).toBe('auto');
      expect(c.rate.value).toBeGreaterThan(0);
    }
    expect(cur.currencies[1].fee).toEqual({ type: 'percentage', value: 2 });
    expect(cur.currencies[2].format.decimals).toBe(0);
    expect(cur.currencies[3].rounding).toEqual({ type: 'nearest', value: 1, subtract: 0.01 });
    expect(cur.last_sync.base).toBe('USD');
    await seedDemo(t.platform);
    expect((await a.get('/currencies')).json().currencies).toEqual(cur.currencies);
  });

  it('the seeded catalogue converts, fixed prices included', async () => {
    const list = (
      await t.inject({
        method: 'GET',
        url: '/wp-json/wc/v3/products?per_page=100&search=Full%20protection',
        headers: { 'x-rova-api-key': a.key },
      })
    ).json();
    const fixed = list.find((p: { name: string }) => p.name === 'Full protection');
    const r = await t.inject({
      method: 'POST',
      url: `${FX}/convert`,
      payload: { currency: 'EUR', product_ids: [fixed.id] },
    });
    expect(r.json().prices[fixed.id]).toContain('139.00');
    const gbp = await t.inject({
      method: 'POST',
      url: `${FX}/convert`,
      payload: { currency: 'GBP', product_ids: [fixed.id] },
    });
    expect(gbp.json().currency).toBe('GBP');
    expect(gbp.json().prices[fixed.id]).toContain('£');
  });
});
