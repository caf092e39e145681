import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, WC, type Client } from './helpers.js';

let t: TestApp;
let c: Client;
const ids: Record<string, number> = {};

async function create(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await c.post('/products', body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
}

beforeAll(async () => {
  t = await makeApp();
  c = client(t, (await t.userWithKey('shop_manager')).key);
  ids.alpha = (
    await create({ name: 'Alpha roof box', regular_price: '30.00', sku: 'A-1', description: 'Carries skis' })
  ).id as number;
  ids.bravo = (await create({ name: 'Bravo child seat', regular_price: '10', sale_price: '8', sku: 'B-1' }))
    .id as number;
  ids.charlie = (await create({ name: 'Charlie GPS', regular_price: '20', status: 'draft', sku: 'C-1' })).id as number;
  ids.delta = (await create({ name: 'Delta package', type: 'variable', sku: 'D-1' })).id as number;
  for (const [price, status] of [
    ['5', 'publish'],
    ['15', 'publish'],
    ['1', 'private'],
  ] as const) {
    const v = await c.post(`/products/${ids.delta}/variations`, {
      regular_price: price,
      status,
      attributes: [{ name: 'Size', option: price }],
    });
    expect(v.statusCode, v.body).toBe(201);
  }
});
afterAll(async () => t?.close());

describe('create and read', () => {
  it('answers the WooCommerce shape with derived fields', async () => {
    const r = await c.get(`/products/${ids.bravo}`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      id: ids.bravo,
      name: 'Bravo child seat',
      slug: 'bravo-child-seat',
      type: 'simple',
      status: 'publish',
      sku: 'B-1',
      regular_price: '10',
      sale_price: '8',
      price: '8',
      on_sale: true,
      parent_id: 0,
      variations: [],
      date_on_sale_from: null,
    });
    expect(r.json().price_html).toContain('<del aria-hidden="true">');
    expect(r.json().date_created_gmt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(r.json()).not.toHaveProperty('currency_code');
  });
  it('variable product: price = lowest public variation price, range html, variation ids', async () => {
    const r = (await c.get(`/products/${ids.delta}`)).json();
    expect(r.price).toBe('5');
    expect(r.regular_price).toBe('');
    expect(r.variations).toHaveLength(3);
    expect(r.price_html).toContain('5.00</bdi></span> &ndash; <span');
    expect(r.price_html).toContain('15.00');
    const v = await c.get(`/products/${ids.delta}/variations`);
    expect(v.statusCode).toBe(200);
    expect(v.headers['x-wp-total']).toBe('3');
    expect(v.json()[0]).toMatchObject({ type: 'variation', parent_id: ids.delta });
  });
  it('slugs are generated and deduplicated; SKUs are unique', async () => {
    const a = await create({ name: 'Alpha roof box' });
    expect(a.slug).toBe('alpha-roof-box-2');
    const b = await create({ name: 'Alpha roof box', slug: 'Alpha Roof Box' });
    expect(b.slug).toBe('alpha-roof-box-3');
    const dup = await c.post('/products', { name: 'x', sku: 'A-1' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: 'product_invalid_sku', data: { status: 400 } });
    await c.del(`/products/${a.id as number}?force=true`);
    await c.del(`/products/${b.id as number}?force=true`);
  });
  it('stores prices exactly and reads sale windows in the store time zone', async () => {
    const p = await create({
      name: 'Windowed',
      regular_price: '0100.50',
      sale_price: '99.999',
      date_on_sale_from: '2099-01-01',
      date_on_sale_to: '2099-01-31',
    });
    expect(p).toMatchObject({
      regular_price: '100.50',
      sale_price: '99.999',
      price: '100.50',
      on_sale: false,
      date_on_sale_from: '2099-01-01T00:00:00',
      date_on_sale_to_gmt: '2099-01-31T23:59:59',
    });
    const u = await c.patch(`/products/${p.id as number}`, { date_on_sale_from: null, date_on_sale_to: null });
    expect(u.json()).toMatchObject({ on_sale: true, price: '99.999', date_on_sale_from: null });
    await c.del(`/products/${p.id as number}?force=true`);
  });
});

describe('list', () => {
  const names = (r: { json(): unknown }) => (r.json() as { name: string }[]).map((p) => p.name);
  it('default: every status but trash, newest first, paging headers', async () => {
    const r = await c.get('/products');
    expect(r.statusCode).toBe(200);
    expect(names(r)).toEqual(['Delta package', 'Charlie GPS', 'Bravo child seat', 'Alpha roof box']);
    expect(r.headers['x-wp-total']).toBe('4');
    expect(r.headers['x-wp-totalpages']).toBe('1');
    expect(r.headers.link).toBeUndefined();
  });
  it('per_page/page with Link headers', async () => {
    const r = await c.get('/products?per_page=1&page=2&orderby=id&order=asc');
    expect(names(r)).toEqual(['Bravo child seat']);
    expect(r.headers['x-wp-total']).toBe('4');
    expect(r.headers['x-wp-totalpages']).toBe('4');
    expect(r.headers.link).toBe(
      '<http://localhost:80/wp-json/wc/v3/products?per_page=1&page=1&orderby=id&order=asc>; rel="prev", <http://localhost:80/wp-json/wc/v3/products?per_page=1&page=3&orderby=id&order=asc>; rel="next"',
    );
    const beyond = await c.get('/products?per_page=2&page=9');
    expect(beyond.json()).toEqual([]);
    expect(beyond.headers['x-wp-total']).toBe('4');
  });
  it('per_page bounds 1–100', async () => {
    for (const bad of ['0', '101', 'abc', '-1']) {
      const r = await c.get(`/products?per_page=${bad}`);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json()).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { per_page: expect.any(String) } },
      });
    }
    expect((await c.get('/products?per_page=100')).statusCode).toBe(200);
    expect((await c.get('/products?per_page=1')).json()).toHaveLength(1);
  });
  it('orderby title, slug, price, id and order', async () => {
    expect(names(await c.get('/products?orderby=title&order=asc'))).toEqual([
      'Alpha roof box',
      'Bravo child seat',
      'Charlie GPS',
      'Delta package',
    ]);
    expect(names(await c.get('/products?orderby=slug&order=desc'))).toEqual([
      'Delta package',
      'Charlie GPS',
      'Bravo child seat',
      'Alpha roof box',
    ]);
    // prices: delta 5 (lowest public variation), bravo 8 (sale), charlie 20, alpha 30
    expect(names(await c.get('/products?orderby=price&order=asc'))).toEqual([
      'Delta package',
      'Bravo child seat',
      'Charlie GPS',
      'Alpha roof box',
    ]);
    expect(names(await c.get('/products?orderby=id&order=asc'))).toEqual([
      'Alpha roof box',
      'Bravo child seat',
      'Charlie GPS',
      'Delta package',
    ]);
    expect((await c.get('/products?orderby=relevance')).statusCode).toBe(400);
    expect((await c.get('/products?order=up')).statusCode).toBe(400);
  });
  it('status, type, sku, search, include, exclude', async () => {
    expect(names(await c.get('/products?status=draft'))).toEqual(['Charlie GPS']);
    expect(names(await c.get('/products?type=variable'))).toEqual(['Delta package']);
    expect(names(await c.get('/products?sku=A-1,C-1&orderby=id&order=asc'))).toEqual(['Alpha roof box', 'Charlie GPS']);
    expect(names(await c.get('/products?search=skis'))).toEqual(['Alpha roof box']);
    expect(names(await c.get('/products?search=SEAT'))).toEqual(['Bravo child seat']);
    expect(names(await c.get('/products?search=100%25'))).toEqual([]);
    expect(names(await c.get(`/products?include=${ids.alpha},${ids.charlie}&orderby=id&order=asc`))).toEqual([
      'Alpha roof box',
      'Charlie GPS',
    ]);
    // WordPress: a repeated parameter keeps its last value; lists are include[]=… (or include[0]=…)
    expect(names(await c.get(`/products?include=${ids.alpha}&include=${ids.bravo}&orderby=id&order=asc`))).toEqual([
      'Bravo child seat',
    ]);
    expect(names(await c.get(`/products?include[]=${ids.alpha}&include[]=${ids.bravo}&orderby=id&order=asc`))).toEqual([
      'Alpha roof box',
      'Bravo child seat',
    ]);
    expect(names(await c.get(`/products?exclude=${ids.alpha},${ids.delta}&orderby=id&order=asc`))).toEqual([
      'Bravo child seat',
      'Charlie GPS',
    ]);
    const bad = await c.get('/products?include=1,x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'rest_invalid_param', data: { params: { include: expect.any(String) } } });
    expect((await c.get('/products?status=gone')).statusCode).toBe(400);
    expect((await c.get('/products?type=grouped')).statusCode).toBe(400);
  });
});

describe('errors in the WP shape', () => {
  it('unknown id → 404 woocommerce_rest_product_invalid_id', async () => {
    for (const r of [
      await c.get('/products/999999'),
      await c.put('/products/999999', { name: 'x' }),
      await c.del('/products/999999'),
    ]) {
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({
        code: 'woocommerce_rest_product_invalid_id',
        message: 'Invalid ID.',
        data: { status: 404 },
      });
    }
    const vid = (await c.get(`/products/${ids.delta}`)).json().variations[0] as number;
    expect((await c.get(`/products/${vid}`)).statusCode).toBe(404);
    const wrongParent = await c.get(`/products/${ids.alpha}/variations/${vid}`);
    expect(wrongParent.statusCode).toBe(404);
    expect(wrongParent.json().code).toBe('woocommerce_rest_product_variation_invalid_id');
    expect((await c.get('/products/999999/variations')).json().code).toBe('woocommerce_rest_product_invalid_id');
  });
  it('a path that is not an id is no route: 404 rest_no_route (WordPress ids are [\\d]+), not a misleading 400', async () => {
    for (const r of [
      await c.get('/products/abc'),
      await c.put('/products/categories', {}),
      await c.get('/products/batch'),
      await c.get('/products/1/nothing'),
    ]) {
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });
  it('wrong types, unknown enum values, negative or non-decimal prices → 400 rest_invalid_param', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 5 }, 'name'],
      [{ regular_price: 12.5 }, 'regular_price'],
      [{ regular_price: '-1' }, 'regular_price'],
      [{ regular_price: '1e3' }, 'regular_price'],
      [{ sale_price: '12,50' }, 'sale_price'],
      [{ status: 'published' }, 'status'],
      [{ type: 'grouped' }, 'type'],
      [{ catalog_visibility: 'nowhere' }, 'catalog_visibility'],
      [{ categories: [{ id: 'x' }] }, 'categories'],
      [{ rova_fixed_prices: { eur: '1' } }, 'rova_fixed_prices'],
      [{ rova_fixed_prices: { EUR: 1 } }, 'rova_fixed_prices'],
      [{ date_on_sale_from: '2026-13-45' }, 'date_on_sale_from'],
      [{ date_on_sale_from: '2026-05-02', date_on_sale_to: '2026-05-01' }, 'date_on_sale_to'],
      [{ menu_order: '3' }, 'menu_order'],
    ];
    for (const [body, field] of cases) {
      const r = await c.post('/products', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json(), JSON.stringify(body)).toMatchObject({
        code: 'rest_invalid_param',
        data: { status: 400, params: { [field]: expect.any(String) } },
      });
    }
    const arr = await t.inject({
      method: 'POST',
      url: `${WC}/products`,
      headers: { 'x-rova-api-key': (await t.userWithKey('administrator')).key },
      payload: [1, 2],
    });
    expect(arr.statusCode).toBe(400);
    expect(arr.json().code).toBe('rest_invalid_param');
    expect((await c.get('/products')).headers['x-wp-total']).toBe('4');
  });
  it('malformed JSON → 400 rest_invalid_json; oversized body → 413', async () => {
    const key = (await t.userWithKey('administrator')).key;
    const bad = await t.inject({
      method: 'POST',
      url: `${WC}/products`,
      headers: { 'x-rova-api-key': key, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'rest_invalid_json', data: { status: 400 } });
    const big = await t.inject({
      method: 'POST',
      url: `${WC}/products`,
      headers: { 'x-rova-api-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024 + 10) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: expect.any(String), message: expect.any(String), data: { status: 413 } });
  });
});

describe('trash and force', () => {
  it('DELETE trashes, again → 410, force deletes', async () => {
    const p = await create({ name: 'Trash me', regular_price: '1' });
    const id = p.id as number;
    const first = await c.del(`/products/${id}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id, status: 'trash' });
    expect((await c.get('/products')).json().map((x: { id: number }) => x.id)).not.toContain(id);
    expect((await c.get('/products?status=trash')).json().map((x: { id: number }) => x.id)).toEqual([id]);
    const again = await c.del(`/products/${id}`);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({
      code: 'woocommerce_rest_already_trashed',
      message: expect.any(String),
      data: { status: 410 },
    });
    const restored = await c.patch(`/products/${id}`, { status: 'publish' });
    expect(restored.json().status).toBe('publish');
    const forced = await c.del(`/products/${id}?force=true`);
    expect(forced.statusCode).toBe(200);
    expect(forced.json()).toMatchObject({ id, status: 'publish' });
    expect((await c.get(`/products/${id}`)).statusCode).toBe(404);
  });
  it('force-deleting a variable product removes its variations; variations need force', async () => {
    const p = await create({ name: 'Parent', type: 'variable' });
    const v = (await c.post(`/products/${p.id as number}/variations`, { regular_price: '3' })).json();
    expect(v).toMatchObject({ type: 'variation', parent_id: p.id, name: 'Parent', status: 'publish' });
    const trash = await c.del(`/products/${p.id as number}/variations/${v.id as number}`);
    expect(trash.statusCode).toBe(501);
    expect(trash.json().code).toBe('woocommerce_rest_trash_not_supported');
    await c.del(`/products/${p.id as number}?force=true`);
    expect((await c.get(`/products/${p.id as number}/variations/${v.id as number}`)).statusCode).toBe(404);
  });
  it('variations cannot be added to a simple product', async () => {
    const r = await c.post(`/products/${ids.alpha}/variations`, { regular_price: '3' });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('woocommerce_rest_product_variation_invalid_parent');
  });
  it('variation update and delete', async () => {
    const list = (await c.get(`/products/${ids.delta}/variations?orderby=id&order=asc`)).json() as {
      id: number;
      status: string;
    }[];
    expect(list.map((x) => x.status)).toEqual(['publish', 'publish', 'private']);
    const u = await c.put(`/products/${ids.delta}/variations/${list[1]!.id}`, { sale_price: '4' });
    expect(u.json()).toMatchObject({ price: '4', on_sale: true });
    expect((await c.get(`/products/${ids.delta}`)).json().price).toBe('4');
    await c.patch(`/products/${ids.delta}/variations/${list[1]!.id}`, { sale_price: '' });
    expect((await c.get(`/products/${ids.delta}`)).json().price).toBe('5');
    expect((await c.put(`/products/${ids.delta}/variations/${list[1]!.id}`, { status: 'draft' })).statusCode).toBe(400);
  });
});

describe('batch', () => {
  it('creates, updates and deletes in one go', async () => {
    const tmp = await create({ name: 'Batch victim' });
    const r = await c.post('/products/batch', {
      create: [
        { name: 'Batch one', regular_price: '1' },
        { name: 'Batch two', regular_price: '2' },
      ],
      update: [{ id: ids.alpha, description: 'Carries skis and boards' }],
      delete: [tmp.id],
    });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.create.map((x: { name: string }) => x.name)).toEqual(['Batch one', 'Batch two']);
    expect(body.update[0]).toMatchObject({ id: ids.alpha, description: 'Carries skis and boards' });
    expect(body.delete[0]).toMatchObject({ id: tmp.id });
    expect((await c.get(`/products/${tmp.id as number}`)).statusCode).toBe(404);
    for (const p of body.create) await c.del(`/products/${p.id as number}?force=true`);
  });
  it('one bad item → 400 and nothing written', async () => {
    const before = (await c.get('/products?per_page=100&status=any')).json();
    for (const body of [
      { create: [{ name: 'Good' }, { name: 'Bad', regular_price: 'abc' }] },
      {
        create: [{ name: 'Good' }],
        update: [
          { id: ids.alpha, name: 'Renamed' },
          { id: 999999, name: 'x' },
        ],
      },
      {
        create: [
          { name: 'Good', sku: 'NEW-1' },
          { name: 'Dup', sku: 'NEW-1' },
        ],
      },
      { update: [{ id: ids.alpha, name: 'Renamed' }], delete: [ids.bravo, 999999] },
      { create: [{ name: 'Good' }], delete: ['x'] },
    ]) {
      const r = await c.post('/products/batch', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().data.status).toBe(400);
    }
    expect((await c.get('/products?per_page=100&status=any')).json()).toEqual(before);
  });
  it('more than 100 items → 413, nothing written', async () => {
    const r = await c.post('/products/batch', {
      create: Array.from({ length: 60 }, (_, i) => ({ name: `n${i}` })),
      delete: Array.from({ length: 41 }, () => 999999),
    });
    expect(r.statusCode).toBe(413);
    expect(r.json()).toMatchObject({ code: 'woocommerce_rest_request_entity_too_large', data: { status: 413 } });
    expect((await c.get('/products')).headers['x-wp-total']).toBe('4');
  });
});

describe('validation messages', () => {
  it('names the allowed values of an enum', async () => {
    const r = await c.get('/products?orderby=relevance');
    expect(r.json()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): orderby',
      data: {
        status: 400,
        params: {
          orderby:
            'orderby must be one of: date, id, include, title, slug, price, popularity, rating, modified, menu_order',
        },
      },
    });
    const b = await c.post('/products', { regular_price: 5 });
    expect(b.json().data.params).toEqual({ regular_price: 'regular_price must be string' });
  });
});
