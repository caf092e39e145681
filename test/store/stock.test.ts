import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, type Client } from './helpers.js';

/** WooCommerce's stock fields through wc/v3 (issue 34.7): stored, validated and shaped as WooCommerce's REST API v3. */

let t: TestApp;
let c: Client;
const stock = (p: Record<string, unknown>) => ({
  manage_stock: p.manage_stock,
  stock_quantity: p.stock_quantity,
  backorders: p.backorders,
  backorders_allowed: p.backorders_allowed,
  backordered: p.backordered,
  stock_status: p.stock_status,
});

beforeAll(async () => {
  t = await makeApp();
  c = client(t, (await t.userWithKey('shop_manager')).key);
}, 300_000);
afterAll(async () => t?.close());

describe('wc/v3 stock fields', () => {
  it('defaults; managed stock derives stock_status from the quantity and backorders as WooCommerce does; unmanaged drops them', async () => {
    const plain = await c.post('/products', { name: 'Roof box', regular_price: '30' });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(stock(plain.json())).toEqual({
      manage_stock: false,
      stock_quantity: null,
      backorders: 'no',
      backorders_allowed: false,
      backordered: false,
      stock_status: 'instock',
    });
    const id = plain.json().id as number;

    const managed = await c.post('/products', {
      name: 'Snow chains',
      regular_price: '15',
      manage_stock: true,
      stock_quantity: 4,
      backorders: 'notify',
      stock_status: 'outofstock',
    });
    expect(managed.statusCode, managed.body).toBe(201);
    expect(stock(managed.json())).toEqual({
      manage_stock: true,
      stock_quantity: 4,
      backorders: 'notify',
      backorders_allowed: true,
      backordered: false,
      stock_status: 'instock',
    });
    const mid = managed.json().id as number;

    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { stock_quantity: 0 },
        {
          manage_stock: true,
          stock_quantity: 0,
          backorders: 'notify',
          backorders_allowed: true,
          backordered: true,
          stock_status: 'onbackorder',
        },
      ],
      [
        { backorders: 'no' },
        {
          manage_stock: true,
          stock_quantity: 0,
          backorders: 'no',
          backorders_allowed: false,
          backordered: false,
          stock_status: 'outofstock',
        },
      ],
      [
        { stock_quantity: -2, backorders: 'yes' },
        {
          manage_stock: true,
          stock_quantity: -2,
          backorders: 'yes',
          backorders_allowed: true,
          backordered: true,
          stock_status: 'onbackorder',
        },
      ],
      [
        { stock_status: 'instock' },
        {
          manage_stock: true,
          stock_quantity: -2,
          backorders: 'yes',
          backorders_allowed: true,
          backordered: true,
          stock_status: 'onbackorder',
        },
      ],
      [
        { manage_stock: false, stock_status: 'outofstock' },
        {
          manage_stock: false,
          stock_quantity: null,
          backorders: 'no',
          backorders_allowed: false,
          backordered: false,
          stock_status: 'outofstock',
        },
      ],
      // a quantity without stock management is not kept (WooCommerce ignores it)
      [
        { stock_quantity: 9 },
        {
          manage_stock: false,
          stock_quantity: null,
          backorders: 'no',
          backorders_allowed: false,
          backordered: false,
          stock_status: 'outofstock',
        },
      ],
    ];
    for (const [body, want] of steps) {
      const r = await c.put(`/products/${mid}`, body);
      expect(r.statusCode, r.body).toBe(200);
      expect(stock(r.json()), JSON.stringify(body)).toEqual(want);
    }
    const read = await c.get(`/products/${mid}`);
    expect(stock(read.json())).toEqual(steps.at(-1)![1]);
    expect(stock((await c.get(`/products/${id}`)).json())).toMatchObject({
      manage_stock: false,
      stock_status: 'instock',
    });
  });

  it('invalid values → 400 rest_invalid_param naming the field; nothing written', async () => {
    const id = (
      await c.post('/products', { name: 'Bike rack', regular_price: '12', manage_stock: true, stock_quantity: 3 })
    ).json().id as number;
    const bad: [Record<string, unknown>, string][] = [
      [{ manage_stock: 'yes' }, 'manage_stock'],
      [{ stock_quantity: '5' }, 'stock_quantity'],
      [{ stock_quantity: 1.5 }, 'stock_quantity'],
      [{ stock_quantity: 2_147_483_648 }, 'stock_quantity'],
      [{ backorders: 'maybe' }, 'backorders'],
      [{ stock_status: 'gone' }, 'stock_status'],
    ];
    for (const [body, field] of bad) {
      for (const r of [await c.put(`/products/${id}`, body), await c.post('/products', { name: 'x', ...body })]) {
        expect(r.statusCode, JSON.stringify(body)).toBe(400);
        expect(r.json(), JSON.stringify(body)).toMatchObject({
          code: 'rest_invalid_param',
          message: `Invalid parameter(s): ${field}`,
          data: { status: 400, params: { [field]: expect.any(String) } },
        });
      }
    }
    expect(stock((await c.get(`/products/${id}`)).json())).toEqual({
      manage_stock: true,
      stock_quantity: 3,
      backorders: 'no',
      backorders_allowed: false,
      backordered: false,
      stock_status: 'instock',
    });
  });

  it('variations: their own stock, created, updated and read; batch too', async () => {
    const parent = (
      await c.post('/products', {
        name: 'Child seat',
        type: 'variable',
        attributes: [{ name: 'Size', variation: true, options: ['S', 'M'] }],
      })
    ).json().id as number;
    const v = await c.post(`/products/${parent}/variations`, {
      regular_price: '10',
      attributes: [{ name: 'Size', option: 'S' }],
      manage_stock: true,
      stock_quantity: 0,
    });
    expect(v.statusCode, v.body).toBe(201);
    expect(stock(v.json())).toEqual({
      manage_stock: true,
      stock_quantity: 0,
      backorders: 'no',
      backorders_allowed: false,
      backordered: false,
      stock_status: 'outofstock',
    });
    const vid = v.json().id as number;
    const up = await c.put(`/products/${parent}/variations/${vid}`, { stock_quantity: 7 });
    expect(stock(up.json())).toMatchObject({ stock_quantity: 7, stock_status: 'instock' });
    const batch = await c.post(`/products/${parent}/variations/batch`, {
      update: [{ id: vid, backorders: 'yes', stock_quantity: -1 }],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(stock(batch.json().update[0])).toEqual({
      manage_stock: true,
      stock_quantity: -1,
      backorders: 'yes',
      backorders_allowed: true,
      backordered: true,
      stock_status: 'onbackorder',
    });
    expect(stock((await c.get(`/products/${parent}/variations/${vid}`)).json())).toMatchObject({
      stock_quantity: -1,
      stock_status: 'onbackorder',
    });
    const bad = await c.put(`/products/${parent}/variations/${vid}`, { backorders: 'sometimes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { backorders: expect.any(String) } },
    });
  });
});
