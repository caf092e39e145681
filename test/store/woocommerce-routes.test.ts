import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueView } from '../../src/modules/store/catalogue-view.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, type Client } from './helpers.js';

/** WooCommerce filters on products, the taxonomy routes, variations/batch, slugs and permalinks. */

let t: TestApp;
let c: Client;
const id: Record<string, number> = {};

type Item = { id: number; name: string; slug: string };
const names = async (url: string) => {
  const r = await c.get(url);
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  return (r.json() as Item[]).map((p) => p.name);
};
async function ok(
  r: Promise<{ statusCode: number; body: string; json(): unknown }>,
  status = 200,
): Promise<Record<string, unknown>> {
  const res = await r;
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as Record<string, unknown>;
}

beforeAll(async () => {
  t = await makeApp({ env: { STORE_URL: 'https://shop.example.com/' } });
  c = client(t, (await t.userWithKey('shop_manager')).key);
  id.cars = (await ok(c.post('/products/categories', { name: 'Car gear' }), 201)).id as number;
  id.kids = (
    await ok(c.post('/products/categories', { name: 'Kids', parent: id.cars, description: 'For children' }), 201)
  ).id as number;
  id.winter = (await ok(c.post('/products/tags', { name: 'Winter' }), 201)).id as number;
  const mk = async (body: Record<string, unknown>) => (await ok(c.post('/products', body), 201)).id as number;
  id.seat = await mk({
    name: 'Child seat',
    regular_price: '12',
    sku: 'F-SEAT',
    categories: [{ id: id.kids }],
    featured: true,
  });
  id.chains = await mk({
    name: 'Snow chains',
    regular_price: '15',
    sale_price: '11',
    sku: 'F-CHAINS',
    categories: [{ id: id.cars }],
    tags: [{ id: id.winter }],
    stock_status: 'outofstock',
  });
  id.box = await mk({ name: 'Roof box', regular_price: '30', sku: 'F-BOX', categories: [{ id: id.cars }] });
  id.draft = await mk({ name: 'Draft idea', regular_price: '1', status: 'draft' });
}, 300_000);
afterAll(async () => t?.close());

describe('product filters', () => {
  it('slug, sku, include in both forms, exclude, status', async () => {
    expect(await names('/products?slug=roof-box')).toEqual(['Roof box']);
    expect(await names('/products?slug=roof-box,child-seat&orderby=id&order=asc')).toEqual(['Child seat', 'Roof box']);
    expect(await names('/products?sku=F-SEAT')).toEqual(['Child seat']);
    expect(await names(`/products?include=${id.seat},${id.box}&orderby=include&order=asc`)).toEqual([
      'Child seat',
      'Roof box',
    ]);
    expect(await names(`/products?include[]=${id.box}&include[]=${id.seat}&orderby=include&order=asc`)).toEqual([
      'Roof box',
      'Child seat',
    ]);
    expect(await names(`/products?include[0]=${id.chains}&include[1]=${id.box}&orderby=include&order=asc`)).toEqual([
      'Snow chains',
      'Roof box',
    ]);
    expect(await names(`/products?exclude[]=${id.seat}&exclude[]=${id.chains}&exclude[]=${id.draft}`)).toEqual([
      'Roof box',
    ]);
    expect(await names('/products?status=draft')).toEqual(['Draft idea']);
  });
  it('featured, on_sale, min_price/max_price, stock_status, category, tag', async () => {
    expect(await names('/products?featured=true')).toEqual(['Child seat']);
    expect(await names('/products?on_sale=true')).toEqual(['Snow chains']);
    expect(await names('/products?status=publish&on_sale=false&orderby=id&order=asc')).toEqual([
      'Child seat',
      'Roof box',
    ]);
    expect(await names('/products?min_price=11&max_price=12&orderby=price&order=asc')).toEqual([
      'Snow chains',
      'Child seat',
    ]);
    expect(await names('/products?stock_status=outofstock')).toEqual(['Snow chains']);
    expect(await names(`/products?category=${id.cars}&orderby=title&order=asc`)).toEqual(['Roof box', 'Snow chains']);
    expect(await names(`/products?category=${id.kids},${id.cars}&orderby=title&order=asc`)).toEqual([
      'Child seat',
      'Roof box',
      'Snow chains',
    ]);
    expect(await names(`/products?tag=${id.winter}`)).toEqual(['Snow chains']);
  });
  it('after/before/modified_after/modified_before, dates_are_gmt, orderby modified and popularity', async () => {
    expect(await names('/products?after=2000-01-01T00:00:00&status=publish&orderby=id&order=asc')).toHaveLength(3);
    expect(await names('/products?before=2000-01-01T00:00:00')).toEqual([]);
    expect(await names('/products?modified_after=2099-01-01T00:00:00Z')).toEqual([]);
    expect(await names('/products?modified_before=2099-01-01&dates_are_gmt=true&status=publish')).toHaveLength(3);
    await c.put(`/products/${id.seat}`, { description: 'touched' });
    expect((await names('/products?orderby=modified&order=desc&per_page=1'))[0]).toBe('Child seat');
    expect(await names('/products?orderby=popularity&status=publish')).toHaveLength(3);
    const bad = await c.get('/products?after=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'rest_invalid_param', data: { params: { after: expect.any(String) } } });
  });
  it('_fields keeps only the named fields; offset skips', async () => {
    const r = await c.get(`/products?include=${id.seat}&_fields=id,name,categories`);
    expect(r.json()).toEqual([
      { id: id.seat, name: 'Child seat', categories: [{ id: id.kids, name: 'Kids', slug: 'kids' }] },
    ]);
    expect((await c.get(`/products/${id.seat}?_fields=id,featured`)).json()).toEqual({ id: id.seat, featured: true });
    expect(await names('/products?status=publish&orderby=id&order=asc&offset=1&per_page=1')).toEqual(['Snow chains']);
  });
  it('an unsupported parameter is a 400 naming it; a repeated one takes the last value', async () => {
    const r = await c.get('/products?attribute=pa_color&per_page=5');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): attribute',
      data: {
        status: 400,
        params: { attribute: 'attribute is not a parameter of this route (Rova does not support it)' },
      },
    });
    expect((await c.post('/products?shiny=1', { name: 'x' })).statusCode).toBe(400);
    expect(await names('/products?per_page=1&per_page=2&status=publish')).toHaveLength(2);
    expect(await names('/products?slug=nothing&slug=roof-box')).toEqual(['Roof box']);
  });
});

describe('categories, tags, attributes and terms', () => {
  it('category CRUD in the WooCommerce shape, with counts, parent, slug rules and force', async () => {
    const kids = await ok(c.get(`/products/categories/${id.kids}`));
    expect(kids).toEqual({
      id: id.kids,
      name: 'Kids',
      slug: 'kids',
      parent: id.cars,
      description: 'For children',
      display: 'default',
      image: null,
      menu_order: 0,
      count: 1,
    });
    expect(
      ((await ok(c.get(`/products/categories?parent=${id.cars}`))) as unknown as Item[]).map((x) => x.name),
    ).toEqual(['Kids']);
    const dup = await c.post('/products/categories', { name: 'Kids' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: 'term_exists', data: { status: 400, resource_id: id.kids } });
    expect((await c.put(`/products/categories/${id.cars}`, { parent: id.kids })).statusCode).toBe(400);
    const renamed = await ok(c.put(`/products/categories/${id.kids}`, { name: 'Children', slug: 'children' }));
    expect(renamed).toMatchObject({ name: 'Children', slug: 'children' });
    expect(((await ok(c.get(`/products/${id.seat}`))).categories as Item[])[0]).toEqual({
      id: id.kids,
      name: 'Children',
      slug: 'children',
    });
    const temp = (await ok(c.post('/products/categories', { name: 'Temporary' }), 201)).id as number;
    const noForce = await c.del(`/products/categories/${temp}`);
    expect(noForce.statusCode).toBe(501);
    expect(noForce.json().code).toBe('woocommerce_rest_trash_not_supported');
    expect(await ok(c.del(`/products/categories/${temp}?force=true`))).toMatchObject({ id: temp, name: 'Temporary' });
    expect((await c.get(`/products/categories/${temp}`)).json()).toMatchObject({
      code: 'woocommerce_rest_term_invalid',
      data: { status: 404 },
    });
  });
  it('unknown category or tag ids on a product are a 400 naming the field, nothing written', async () => {
    const r = await c.post('/products', { name: 'Orphan', categories: [{ id: 999999 }] });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { categories: expect.stringContaining('999999') } },
    });
    expect(await names('/products?search=Orphan')).toEqual([]);
    expect((await c.put(`/products/${id.box}`, { tags: [{ id: 424242 }] })).statusCode).toBe(400);
  });
  it('tags: CRUD and batch in one transaction', async () => {
    const b = await ok(
      c.post('/products/tags/batch', {
        create: [{ name: 'Family' }, { name: 'Summer' }],
        update: [{ id: id.winter, description: 'Cold' }],
      }),
    );
    expect((b.create as Item[]).map((x) => x.slug)).toEqual(['family', 'summer']);
    expect(b.update).toEqual([{ id: id.winter, name: 'Winter', slug: 'winter', description: 'Cold', count: 1 }]);
    const bad = await c.post('/products/tags/batch', { create: [{ name: 'Autumn' }], delete: [987654] });
    expect(bad.statusCode).toBe(400);
    expect(((await ok(c.get('/products/tags?search=autumn'))) as unknown as Item[]).length).toBe(0);
    const del = await ok(c.post('/products/tags/batch', { delete: [(b.create as Item[])[1]!.id] }));
    expect((del.delete as Item[])[0]!.name).toBe('Summer');
  });
  it('attributes with terms: products carry them; options become terms; rename and delete reach products', async () => {
    const size = await ok(c.post('/products/attributes', { name: 'Size', slug: 'pa_size', order_by: 'name' }), 201);
    expect(size).toEqual({
      id: size.id,
      name: 'Size',
      slug: 'pa_size',
      type: 'select',
      order_by: 'name',
      has_archives: false,
    });
    const aid = size.id as number;
    expect((await c.post('/products/attributes', { name: 'Size again', slug: 'size' })).json()).toMatchObject({
      code: 'woocommerce_rest_cannot_create',
    });
    const small = await ok(c.post(`/products/attributes/${aid}/terms`, { name: 'Small', menu_order: 1 }), 201);
    expect(small).toEqual({ id: small.id, name: 'Small', slug: 'small', description: '', menu_order: 1, count: 0 });
    const p = await ok(
      c.put(`/products/${id.box}`, {
        attributes: [{ id: aid, options: ['Small', 'Large'], visible: true, variation: false }],
      }),
    );
    expect(p.attributes).toEqual([
      { id: aid, name: 'Size', options: ['Small', 'Large'], visible: true, variation: false },
    ]);
    const terms = (await ok(c.get(`/products/attributes/${aid}/terms?orderby=name`))) as unknown as (Item & {
      count: number;
    })[];
    expect(terms.map((x) => [x.name, x.count])).toEqual([
      ['Large', 1],
      ['Small', 1],
    ]);
    expect(((await ok(c.get(`/products/attributes/${aid}/terms?product=${id.box}`))) as unknown as Item[]).length).toBe(
      2,
    );
    expect((await c.put(`/products/${id.box}`, { attributes: [{ id: 777777, options: ['x'] }] })).statusCode).toBe(400);
    await ok(c.put(`/products/attributes/${aid}`, { name: 'Box size' }));
    expect((await ok(c.get(`/products/${id.box}`))).attributes).toMatchObject([{ id: aid, name: 'Box size' }]);
    const tb = await ok(
      c.post(`/products/attributes/${aid}/terms/batch`, { create: [{ name: 'Medium' }], delete: [small.id as number] }),
    );
    expect((tb.create as Item[])[0]!.slug).toBe('medium');
    expect((await c.get(`/products/attributes/999999/terms`)).json()).toMatchObject({
      code: 'woocommerce_rest_attribute_invalid',
      data: { status: 404 },
    });
    expect((await c.del(`/products/attributes/${aid}`)).statusCode).toBe(501);
    await ok(c.del(`/products/attributes/${aid}?force=true`));
    expect((await ok(c.get(`/products/${id.box}`))).attributes).toEqual([]);
    const ab = await ok(c.post('/products/attributes/batch', { create: [{ name: 'Colour' }] }));
    expect((ab.create as Item[])[0]).toMatchObject({ name: 'Colour', slug: 'pa_colour' });
    expect(((await ok(c.get('/products/attributes'))) as unknown as Item[]).map((a) => a.name)).toEqual(['Colour']);
  });
});

describe('variations', () => {
  it('slugs come from the title without repeating the parent (no mileage-mileage-300-km)', async () => {
    const parent = await ok(c.post('/products', { name: 'Mileage', type: 'variable' }), 201);
    const v = await ok(
      c.post(`/products/${parent.id as number}/variations`, {
        regular_price: '25',
        attributes: [{ name: 'Distance', option: '300 km' }],
      }),
      201,
    );
    expect(v).toMatchObject({
      name: 'Mileage - 300 km',
      slug: 'mileage-300-km',
      permalink: 'https://shop.example.com/product/mileage/?attribute_distance=300%20km',
    });
    const named = await ok(
      c.post(`/products/${parent.id as number}/variations`, { name: 'Unlimited', regular_price: '99' }),
      201,
    );
    expect(named.slug).toBe('mileage-unlimited');
    id.mileage = parent.id as number;
  });
  it('variations/batch: create, update and delete in one transaction; one bad item writes nothing', async () => {
    const list = (await ok(c.get(`/products/${id.mileage}/variations?orderby=id&order=asc`))) as unknown as Item[];
    const b = await ok(
      c.post(`/products/${id.mileage}/variations/batch`, {
        create: [{ regular_price: '45', attributes: [{ name: 'Distance', option: '600 km' }] }],
        update: [{ id: list[0]!.id, sale_price: '20' }],
        delete: [list[1]!.id],
      }),
    );
    expect((b.create as Item[])[0]).toMatchObject({ slug: 'mileage-600-km', regular_price: '45', type: 'variation' });
    expect((b.update as Item[])[0]).toMatchObject({ id: list[0]!.id, sale_price: '20', on_sale: true });
    expect((b.delete as Item[])[0]).toMatchObject({ id: list[1]!.id });
    const bad = await c.post(`/products/${id.mileage}/variations/batch`, {
      create: [{ regular_price: '1' }],
      update: [{ id: id.seat, regular_price: '2' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'woocommerce_rest_product_variation_invalid_id',
      data: { batch: { operation: 'update', index: 0 } },
    });
    expect(((await ok(c.get(`/products/${id.mileage}/variations`))) as unknown as Item[]).length).toBe(2);
    expect(
      (await c.post(`/products/${id.seat}/variations/batch`, { create: [{ regular_price: '1' }] })).statusCode,
    ).toBe(400);
  });
  it('the catalogue view used by /convert follows taxonomy and batch writes', async () => {
    const view = catalogueView(t.platform);
    await view.load();
    const v = ((await ok(c.get(`/products/${id.mileage}/variations?orderby=id&order=asc`))) as unknown as Item[])[0]!;
    expect(view.priceHtml(v.id, null)).toContain('20.00');
    await ok(c.post(`/products/${id.mileage}/variations/batch`, { update: [{ id: v.id, sale_price: '' }] }));
    await view.load();
    expect(view.priceHtml(v.id, null)).toContain('25.00');
  });
});

describe('permalinks and Link headers', () => {
  it('STORE_URL in front of /product/<slug>/', async () => {
    expect((await ok(c.get(`/products/${id.seat}`))).permalink).toBe('https://shop.example.com/product/child-seat/');
  });
  it('without STORE_URL: the address the request came to; Link headers are absolute too', async () => {
    const plain = await makeApp();
    try {
      const pc = client(plain, (await plain.userWithKey('shop_manager')).key);
      await pc.post('/products', { name: 'One' });
      await pc.post('/products', { name: 'Two' });
      const r = await plain.inject({
        method: 'GET',
        url: '/wp-json/wc/v3/products?per_page=1',
        headers: { host: 'api.example.test:8080', 'x-rova-api-key': (await plain.userWithKey('administrator')).key },
      });
      expect(r.json()[0].permalink).toBe('http://api.example.test:8080/product/two/');
      expect(r.headers.link).toBe(
        '<http://api.example.test:8080/wp-json/wc/v3/products?per_page=1&page=2>; rel="next"',
      );
    } finally {
      await plain.close();
    }
  });
});
