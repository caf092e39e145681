import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueView } from '../../src/modules/store/catalogue-view.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, type Client } from './helpers.js';

/** Variation paging, price rules over variations, orderby price with variable products, trash vs force. */

let t: TestApp;
let c: Client;
let parent = 0;
const vids: number[] = [];
const DAY = 86_400_000;

async function made(url: string, body: Record<string, unknown>): Promise<number> {
  const r = await c.post(url, body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as number;
}

beforeAll(async () => {
  t = await makeApp();
  c = client(t, (await t.userWithKey('shop_manager')).key);
  parent = await made('/products', { name: 'Paged parent', type: 'variable' });
  for (let i = 1; i <= 5; i += 1)
    vids.push(await made(`/products/${parent}/variations`, { regular_price: `${i * 10}` }));
});
afterAll(async () => t?.close());

describe('variation list paging', () => {
  it('X-WP-Total, X-WP-TotalPages and Link prev/next', async () => {
    const r = await c.get(`/products/${parent}/variations?per_page=2&page=2&orderby=id&order=asc`);
    expect(r.statusCode).toBe(200);
    expect((r.json() as { id: number }[]).map((v) => v.id)).toEqual([vids[2], vids[3]]);
    expect(r.headers['x-wp-total']).toBe('5');
    expect(r.headers['x-wp-totalpages']).toBe('3');
    const base = `/wp-json/wc/v3/products/${parent}/variations`;
    expect(r.headers.link).toBe(
      `<http://localhost:80${base}?per_page=2&page=1&orderby=id&order=asc>; rel="prev", <http://localhost:80${base}?per_page=2&page=3&orderby=id&order=asc>; rel="next"`,
    );
    const first = await c.get(`/products/${parent}/variations?per_page=2`);
    expect(first.headers.link).toBe(`<http://localhost:80${base}?per_page=2&page=2>; rel="next"`);
    const last = await c.get(`/products/${parent}/variations?per_page=2&page=3`);
    expect(last.json()).toHaveLength(1);
    expect(last.headers.link).toBe(`<http://localhost:80${base}?per_page=2&page=2>; rel="prev"`);
  });
  it('a page beyond the end: empty, real totals, prev points at the last page', async () => {
    const r = await c.get(`/products/${parent}/variations?per_page=2&page=7`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual([]);
    expect(r.headers['x-wp-total']).toBe('5');
    expect(r.headers['x-wp-totalpages']).toBe('3');
    expect(r.headers.link).toBe(
      `<http://localhost:80/wp-json/wc/v3/products/${parent}/variations?per_page=2&page=3>; rel="prev"`,
    );
    const p = await c.get('/products?per_page=1&page=50');
    expect(p.json()).toEqual([]);
    expect(p.headers.link).toBe(
      `<http://localhost:80/wp-json/wc/v3/products?per_page=1&page=${p.headers['x-wp-totalpages'] as string}>; rel="prev"`,
    );
  });
  it('per_page bounds and status filter on variations', async () => {
    for (const bad of ['0', '101']) {
      const r = await c.get(`/products/${parent}/variations?per_page=${bad}`);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { per_page: expect.any(String) } },
      });
    }
    expect((await c.get(`/products/${parent}/variations?status=trash`)).statusCode).toBe(400);
    expect((await c.get(`/products/${parent}/variations?status=private`)).json()).toEqual([]);
  });
});

describe('price rules over variations', () => {
  it('disabled, password-protected and unpriced variations are left out; equal prices give one amount', async () => {
    const p = await made('/products', { name: 'Rules parent', type: 'variable' });
    const cheapDisabled = await made(`/products/${p}/variations`, { regular_price: '1', status: 'private' });
    const cheapLocked = await made(`/products/${p}/variations`, { regular_price: '2', password: 'x' });
    await made(`/products/${p}/variations`, { regular_price: '' });
    const a = await made(`/products/${p}/variations`, { regular_price: '7.00' });
    await made(`/products/${p}/variations`, { regular_price: '7' });
    const got = (await c.get(`/products/${p}`)).json();
    expect(got).toMatchObject({ price: '7.00', on_sale: false, purchasable: true });
    expect(got.price_html).toBe(
      '<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>7.00</bdi></span>',
    );
    // orderby price uses the same rule as price (not the disabled 1 or the locked 2)
    const other = await made('/products', { name: 'Six', regular_price: '6.50' });
    const ordered = (await c.get(`/products?include=${p},${other}&orderby=price&order=asc`)).json() as { id: number }[];
    expect(ordered.map((x) => x.id)).toEqual([other, p]);
    // the catalogue view agrees, and never shows a disabled or locked variation itself
    const view = catalogueView(t.platform);
    await view.load();
    expect(view.priceHtml(p, null)).toBe(got.price_html);
    expect(view.priceHtml(cheapDisabled, null)).toBeNull();
    expect(view.priceHtml(cheapLocked, null)).toBeNull();
    expect(view.priceHtml(a, null)).toContain('7.00');
    // the parent going private hides its variations too
    await c.patch(`/products/${p}`, { status: 'private' });
    await view.load();
    expect(view.priceHtml(a, null)).toBeNull();
    expect(view.priceHtml(p, null)).toBeNull();
  });
  it('a sale on one variation: on_sale, lowest price; a scheduled one does not count yet', async () => {
    const p = await made('/products', { name: 'Sale parent', type: 'variable' });
    const v1 = await made(`/products/${p}/variations`, {
      regular_price: '20',
      sale_price: '5',
      date_on_sale_from_gmt: new Date(Date.now() + 3 * DAY).toISOString(),
    });
    await made(`/products/${p}/variations`, { regular_price: '30' });
    expect((await c.get(`/products/${p}`)).json()).toMatchObject({ price: '20', on_sale: false });
    expect((await c.get(`/products/${p}/variations/${v1}`)).json()).toMatchObject({
      price: '20',
      sale_price: '5',
      on_sale: false,
    });
    await c.patch(`/products/${p}/variations/${v1}`, { date_on_sale_from: null });
    const now = (await c.get(`/products/${p}`)).json();
    expect(now).toMatchObject({ price: '5', on_sale: true });
    expect(now.price_html).toContain('5.00</bdi></span> &ndash; <span');
  });
  it('a variable product without public variations has no price and sorts last', async () => {
    const p = await made('/products', { name: 'Empty parent', type: 'variable' });
    await made(`/products/${p}/variations`, { regular_price: '0.5', status: 'private' });
    const got = (await c.get(`/products/${p}`)).json();
    expect(got).toMatchObject({ price: '', price_html: '', on_sale: false, purchasable: false });
    const cheap = await made('/products', { name: 'Cheap', regular_price: '1' });
    for (const order of ['asc', 'desc']) {
      const ids = (
        (await c.get(`/products?include=${p},${cheap}&orderby=price&order=${order}`)).json() as { id: number }[]
      ).map((x) => x.id);
      expect(ids, order).toEqual([cheap, p]);
    }
  });
});

describe('variation delete', () => {
  it('without force → 501 and kept; force=false → 501; force=true or force=1 deletes and answers the variation', async () => {
    for (const q of ['', '?force=false']) {
      const r = await c.del(`/products/${parent}/variations/${vids[4]!}${q}`);
      expect(r.statusCode).toBe(501);
      expect(r.json()).toEqual({
        code: 'woocommerce_rest_trash_not_supported',
        message: expect.any(String),
        data: { status: 501 },
      });
    }
    expect((await c.get(`/products/${parent}/variations/${vids[4]!}`)).statusCode).toBe(200);
    const d = await c.del(`/products/${parent}/variations/${vids[4]!}?force=true`);
    expect(d.statusCode).toBe(200);
    expect(d.json()).toMatchObject({ id: vids[4], type: 'variation', parent_id: parent });
    expect((await c.get(`/products/${parent}/variations/${vids[4]!}`)).statusCode).toBe(404);
    const d1 = await c.del(`/products/${parent}/variations/${vids[3]!}?force=1`);
    expect(d1.statusCode).toBe(200);
    expect((await c.get(`/products/${parent}`)).json().variations).toEqual(vids.slice(0, 3));
    expect((await c.del(`/products/${parent}/variations/${vids[3]!}?force=true`)).statusCode).toBe(404);
  });
  it('trashing the parent keeps its variations; force-deleting it removes them', async () => {
    const p = await made('/products', { name: 'Trash parent', type: 'variable' });
    const v = await made(`/products/${p}/variations`, { regular_price: '3' });
    expect((await c.del(`/products/${p}`)).json().status).toBe('trash');
    expect((await c.get(`/products/${p}/variations/${v}`)).statusCode).toBe(200);
    const view = catalogueView(t.platform);
    await view.load();
    expect(view.priceHtml(v, null)).toBeNull();
    expect((await c.del(`/products/${p}?force=true`)).statusCode).toBe(200);
    expect((await c.get(`/products/${p}/variations/${v}`)).statusCode).toBe(404);
  });
});
