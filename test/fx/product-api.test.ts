import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, product, row, variation, type Admin } from './helpers.js';

let t: TestApp;
let a: Admin;
let reader: string;
const id: Record<string, number> = {};
const get = (path: string, cookie?: string) =>
  t.inject({
    method: 'GET',
    url: `/wp-json/wc/v3${path}`,
    headers: { 'x-rova-api-key': reader, ...(cookie ? { cookie } : {}) },
  });

beforeAll(async () => {
  t = await makeApp();
  a = await adminOf(t, 'administrator');
  reader = (await t.userWithKey('shop_manager', ['read'])).key;
  id.sale = await product(t, a.key, { name: 'Sale', regular_price: '1200', sale_price: '1000' });
  id.fixed = await product(t, a.key, {
    name: 'Fixed',
    regular_price: '100',
    sale_price: '90',
    rova_fixed_prices: { EUR: '149.99' },
  });
  id.variable = await product(t, a.key, { name: 'Variable', type: 'variable' });
  id.v50 = await variation(t, a.key, id.variable, { regular_price: '50' });
  id.v100 = await variation(t, a.key, id.variable, { regular_price: '100', sale_price: '80' });
  await a.post('/currencies', {
    currencies: [
      row('EUR', 0.5, { fee: { type: 'percentage', value: 2 } }),
      row('JPY', 150.456),
      row('KWD', 0.30712),
      row('GBP', 0.8, { enabled: false }),
    ],
  });
});
afterAll(async () => t?.close());

describe('GET wc/v3/products?currency=', () => {
  it('converts price, regular_price, sale_price and price_html, and adds currency_code', async () => {
    const r = await get(`/products/${id.sale}?currency=eur`);
    expect(r.statusCode).toBe(200);
    const p = r.json();
    expect(p.currency_code).toBe('EUR');
    expect([p.price, p.regular_price, p.sale_price]).toEqual(['510.00', '612.00', '510.00']); // × 0.51
    expect(p.price_html).toContain('€</span>612.00');
    expect(p.price_html).toContain('€</span>510.00');
  });

  it('a fixed price wins for price, regular and sale alike', async () => {
    const p = (await get(`/products/${id.fixed}?currency=EUR`)).json();
    expect([p.price, p.regular_price, p.sale_price]).toEqual(['149.99', '149.99', '149.99']);
  });

  it('JPY has 0 decimals and KWD 3', async () => {
    const j = (await get(`/products/${id.sale}?currency=JPY`)).json();
    expect([j.price, j.regular_price, j.currency_code]).toEqual(['150456', '180547', 'JPY']); // 1200 × 150.456 = 180547.2
    expect(j.price_html).toContain('¥</span>150,456');
    const k = (await get(`/products/${id.sale}?currency=KWD`)).json();
    expect([k.price, k.regular_price]).toEqual(['307.120', '368.544']);
  });

  it('variable products and variations are converted too', async () => {
    const v = (await get(`/products/${id.variable}?currency=EUR`)).json();
    expect(v.price_html).toContain('€</span>25.50');
    expect(v.price_html).toContain('&ndash;');
    expect(v.price_html).toContain('€</span>40.80');
    const list = (await get(`/products/${id.variable}/variations?currency=EUR`)).json() as {
      id: number;
      price: string;
      currency_code: string;
    }[];
    const one = list.find((x) => x.id === id.v100)!;
    expect([one.price, one.currency_code]).toEqual(['40.80', 'EUR']);
    const single = (await get(`/products/${id.variable}/variations/${id.v50}?currency=EUR`)).json();
    expect(single.price).toBe('25.50');
  });

  it('missing, invalid, disabled and base codes → base values and no currency_code', async () => {
    for (const q of ['', '?currency=', '?currency=XYZ', '?currency=GBP', '?currency=USD', '?currency=EURO']) {
      const p = (await get(`/products/${id.sale}${q}`)).json();
      expect(p, q).not.toHaveProperty('currency_code');
      expect([p.price, p.regular_price, p.sale_price], q).toEqual(['1000', '1200', '1000']);
      expect(p.price_html).toContain('$</span>1,000.00');
    }
  });

  it('never depends on cookies', async () => {
    const p = (await get(`/products/${id.sale}`, 'rova_fx_currency=EUR')).json();
    expect(p).not.toHaveProperty('currency_code');
    expect(p.price).toBe('1000');
    const q = (await get(`/products/${id.sale}?currency=JPY`, 'rova_fx_currency=EUR')).json();
    expect(q.currency_code).toBe('JPY');
  });

  it('the collection honours the parameter and follows rate changes at once', async () => {
    const list = (await get(`/products?currency=EUR&include=${id.sale}`)).json() as {
      price: string;
      currency_code: string;
    }[];
    expect(list[0]).toMatchObject({ price: '510.00', currency_code: 'EUR' });
    await a.post('/currencies', { currencies: [row('EUR', 1, { fee: { type: 'percentage', value: 2 } })] });
    expect((await get(`/products/${id.sale}?currency=EUR`)).json().price).toBe('1020.00');
    await a.post('/currencies', { currencies: [row('EUR', 1, { enabled: false })] });
    expect((await get(`/products/${id.sale}?currency=EUR`)).json()).not.toHaveProperty('currency_code');
  });
});
