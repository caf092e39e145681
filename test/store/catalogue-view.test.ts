// @integration: the catalogue view is invalidated through the bus
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueView } from '../../src/modules/store/catalogue-view.js';
import type { PricingCurrency } from '../../src/modules/store/currency-port.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, type Client } from './helpers.js';

let t: TestApp;
let c: Client;
const id: Record<string, number> = {};
const amount = (n: string, sym = '$') =>
  `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">${sym}</span>${n}</bdi></span>`;

async function make(key: string, body: Record<string, unknown>, parent?: number) {
  const r = await c.post(parent ? `/products/${parent}/variations` : '/products', body);
  expect(r.statusCode, r.body).toBe(201);
  id[key] = r.json().id as number;
}

beforeAll(async () => {
  t = await makeApp();
  c = client(t, (await t.userWithKey('administrator')).key);
  await make('public', { name: 'Public', regular_price: '10' });
  for (const s of ['draft', 'pending', 'private', 'future']) await make(s, { name: s, regular_price: '10', status: s });
  await make('trash', { name: 'Trashed', regular_price: '10' });
  await c.del(`/products/${id.trash}`);
  await make('password', { name: 'Secret', regular_price: '10', password: 'pw' });
  await make('noprice', { name: 'No price' });
  await make('scheduled', {
    name: 'Scheduled',
    regular_price: '10',
    sale_price: '7',
    date_on_sale_from: '2030-01-01T00:00:00Z',
  });
  await make('variable', { name: 'Variable', type: 'variable' });
  await make('v1', { regular_price: '5' }, id.variable);
  await make('v2', { regular_price: '9' }, id.variable);
  await make('vDisabled', { regular_price: '1', status: 'private' }, id.variable);
  await make('same', { name: 'Same prices', type: 'variable' });
  await make('s1', { regular_price: '4' }, id.same);
  await make('s2', { regular_price: '4.00' }, id.same);
  await make('draftParent', { name: 'Draft parent', type: 'variable', status: 'draft' });
  await make('orphanish', { regular_price: '3' }, id.draftParent);
  await make('pwParent', { name: 'Pw parent', type: 'variable', password: 'x' });
  await make('pwChild', { regular_price: '3' }, id.pwParent);
});
afterAll(async () => t?.close());

describe('catalogue view', () => {
  it('answers null until loaded, then serves from memory', async () => {
    const view = catalogueView(t.platform);
    expect(catalogueView(t.platform)).toBe(view);
    view.invalidate();
    expect(view.priceHtml(id.public!, null)).toBeNull();
    await view.load();
    expect(view.priceHtml(id.public!, null)).toBe(amount('10.00'));
  });
  it('public-ness: only public products and variations with a price', async () => {
    const view = catalogueView(t.platform);
    await view.load();
    for (const k of [
      'draft',
      'pending',
      'private',
      'future',
      'trash',
      'password',
      'noprice',
      'vDisabled',
      'orphanish',
      'draftParent',
      'pwChild',
      'pwParent',
    ]) {
      expect(view.priceHtml(id[k]!, null), k).toBeNull();
    }
    expect(view.priceHtml(999999, null)).toBeNull();
    expect(view.priceHtml(id.v1!, null)).toBe(amount('5.00'));
    expect(view.priceHtml(id.variable!, null)).toBe(`${amount('5.00')} &ndash; ${amount('9.00')}`);
    expect(view.priceHtml(id.same!, null)).toBe(amount('4.00'));
  });
  it('evaluates sale windows at call time', async () => {
    const view = catalogueView(t.platform);
    await view.load();
    expect(view.priceHtml(id.scheduled!, null)).toBe(amount('10.00'));
    const later = view.priceHtml(id.scheduled!, null, new Date('2030-06-01T00:00:00Z'));
    expect(later).toContain('<del aria-hidden="true">');
    expect(later).toContain('<ins aria-hidden="true">' + amount('7.00') + '</ins>');
    expect(view.priceHtml(id.scheduled!, null)).toBe(amount('10.00'));
  });
  it('renders in a pricing currency', async () => {
    const cur: PricingCurrency = {
      format: { code: 'GBP', symbol: '<b>', position: 'left', decimals: 2, decimalSep: '.', thousandSep: ',' },
      convert: (a, fixed) => fixed ?? new Decimal(a).times(2).toString(),
    };
    const view = catalogueView(t.platform);
    await view.load();
    expect(view.priceHtml(id.public!, cur)).toBe(amount('20.00', '&lt;b&gt;'));
    expect(view.priceHtml(id.draft!, cur)).toBeNull();
  });
  it('is invalidated by every catalogue write, and by a bus message from another node', async () => {
    const view = catalogueView(t.platform);
    await view.load();
    await c.patch(`/products/${id.public}`, { regular_price: '11' });
    expect(view.priceHtml(id.public!, null)).toBeNull();
    await view.load();
    expect(view.priceHtml(id.public!, null)).toBe(amount('11.00'));
    await c.patch(`/products/${id.public}`, { status: 'draft' });
    await view.load();
    expect(view.priceHtml(id.public!, null)).toBeNull();
    await c.put(`/products/${id.variable}/variations/${id.vDisabled}`, { status: 'publish' });
    await view.load();
    expect(view.priceHtml(id.variable!, null)).toBe(`${amount('1.00')} &ndash; ${amount('9.00')}`);
    await c.patch(`/products/${id.draftParent}`, { status: 'publish' });
    await view.load();
    expect(view.priceHtml(id.orphanish!, null)).toBe(amount('3.00'));
    await c.post('/products/batch', { delete: [id.draftParent] });
    await view.load();
    expect(view.priceHtml(id.orphanish!, null)).toBeNull();
    await t.platform.bus.publish('store.catalogue', 'other-node');
    expect(view.priceHtml(id.v1!, null)).toBeNull();
    await view.load();
    expect(view.priceHtml(id.v1!, null)).toBe(amount('5.00'));
  });
});
