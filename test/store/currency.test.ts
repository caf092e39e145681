import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCurrencyPort, type CurrencyPort, type PricingCurrency } from '../../src/modules/store/currency-port.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, type Client } from './helpers.js';

/** A test port: base USD ($, left); EUR at 0.5 (right_space, ',' decimals); JPY at 150 (0 decimals). */
const EUR: PricingCurrency = {
  format: { code: 'EUR', symbol: '€', position: 'right_space', decimals: 2, decimalSep: ',', thousandSep: '.' },
  convert: (amount, fixed) => fixed ?? new Decimal(amount).times('0.5').toString(),
};
const JPY: PricingCurrency = {
  format: { code: 'JPY', symbol: '¥', position: 'left', decimals: 0, decimalSep: '.', thousandSep: ',' },
  convert: (amount, fixed) => fixed ?? new Decimal(amount).times('150.3').toString(),
};
const port: CurrencyPort = {
  base: () => ({ code: 'USD', symbol: 'US$', position: 'left', decimals: 2, decimalSep: '.', thousandSep: ',' }),
  resolve: (code) => ({ EUR, JPY })[code] ?? null,
};

let t: TestApp;
let c: Client;
let simple = 0;
let fixed = 0;
let variable = 0;
let variation = 0;

beforeAll(async () => {
  t = await makeApp();
  c = client(t, (await t.userWithKey('shop_manager')).key);
  simple = (await c.post('/products', { name: 'Sale seat', regular_price: '100', sale_price: '80.01' })).json().id;
  fixed = (
    await c.post('/products', {
      name: 'Fixed',
      regular_price: '100',
      sale_price: '90',
      rova_fixed_prices: { EUR: '149.99' },
    })
  ).json().id;
  variable = (await c.post('/products', { name: 'Var', type: 'variable' })).json().id;
  variation = (await c.post(`/products/${variable}/variations`, { regular_price: '10' })).json().id;
  await c.post(`/products/${variable}/variations`, { regular_price: '1000' });
});
afterAll(async () => t?.close());

describe('?currency= without a currency port', () => {
  it('base values, Intl format, no currency_code', async () => {
    const r = (await c.get(`/products/${simple}?currency=EUR`)).json();
    expect(r).toMatchObject({ price: '80.01', regular_price: '100', sale_price: '80.01' });
    expect(r).not.toHaveProperty('currency_code');
    expect(r.price_html).toContain('<span class="woocommerce-Price-currencySymbol">$</span>80.01');
  });
});

describe('?currency= with a port', () => {
  beforeAll(() => setCurrencyPort(t.platform, port));

  it('converts price, regular and sale with the currency decimals and adds currency_code', async () => {
    const r = (await c.get(`/products/${simple}?currency=%20eur%20`)).json();
    expect(r).toMatchObject({
      price: '40.01',
      regular_price: '50.00',
      sale_price: '40.01',
      on_sale: true,
      currency_code: 'EUR',
    });
    expect(r.price_html).toBe(
      '<del aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi>50,00&nbsp;<span class="woocommerce-Price-currencySymbol">€</span></bdi></span></del> ' +
        '<span class="screen-reader-text">Original price was: 50,00&nbsp;€.</span>' +
        '<ins aria-hidden="true"><span class="woocommerce-Price-amount amount"><bdi>40,01&nbsp;<span class="woocommerce-Price-currencySymbol">€</span></bdi></span></ins>' +
        '<span class="screen-reader-text">Current price is: 40,01&nbsp;€.</span>',
    );
  });
  it('0-decimal currency', async () => {
    const r = (await c.get(`/products/${simple}?currency=JPY`)).json();
    expect(r).toMatchObject({ price: '12026', regular_price: '15030', sale_price: '12026', currency_code: 'JPY' });
  });
  it('fixed price wins for price, regular and sale', async () => {
    const r = (await c.get(`/products/${fixed}?currency=EUR`)).json();
    expect(r).toMatchObject({ price: '149.99', regular_price: '149.99', sale_price: '149.99', currency_code: 'EUR' });
    expect(r.price_html).toBe(
      '<span class="woocommerce-Price-amount amount"><bdi>149,99&nbsp;<span class="woocommerce-Price-currencySymbol">€</span></bdi></span>',
    );
    expect((await c.get(`/products/${fixed}?currency=JPY`)).json().price).toBe('13527');
  });
  it('unknown, disabled or base currency → base values with the port base format, no currency_code', async () => {
    for (const q of ['?currency=GBP', '?currency=USD', '?currency=', '?currency=EURO', '']) {
      const r = (await c.get(`/products/${simple}${q}`)).json();
      expect(r, q).toMatchObject({ price: '80.01', regular_price: '100' });
      expect(r, q).not.toHaveProperty('currency_code');
      expect(r.price_html, q).toContain('US$</span>100.00');
    }
  });
  it('never reads the currency cookie', async () => {
    const key = (await t.userWithKey('administrator')).key;
    const r = await t.inject({
      method: 'GET',
      url: `/wp-json/wc/v3/products/${simple}`,
      headers: { 'x-rova-api-key': key },
      cookies: { rova_fx_currency: 'EUR' },
    });
    expect(r.json()).not.toHaveProperty('currency_code');
  });
  it('list, variable range, variations list and single honour it', async () => {
    const list = (await c.get('/products?currency=EUR&orderby=id&order=asc')).json();
    expect(list.every((p: { currency_code?: string }) => p.currency_code === 'EUR')).toBe(true);
    const v = list.find((p: { id: number }) => p.id === variable);
    expect(v.price).toBe('5.00');
    expect(v.price_html).toContain('5,00&nbsp;');
    expect(v.price_html).toContain(' &ndash; ');
    expect(v.price_html).toContain('500,00&nbsp;');
    const vl = (await c.get(`/products/${variable}/variations?currency=EUR&orderby=id&order=asc`)).json();
    expect(vl.map((x: { price: string }) => x.price)).toEqual(['5.00', '500.00']);
    const one = (await c.get(`/products/${variable}/variations/${variation}?currency=eur`)).json();
    expect(one).toMatchObject({ price: '5.00', regular_price: '5.00', sale_price: '', currency_code: 'EUR' });
  });
});
