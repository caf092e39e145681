import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as wooPackage from '@woocommerce/woocommerce-rest-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

/**
 * The official WooCommerce REST client (@woocommerce/woocommerce-rest-api), unchanged, against real sockets:
 * plain HTTP (it signs with OAuth 1.0a) and HTTPS with a throwaway self-signed certificate (it sends HTTP Basic).
 */

let t: TestApp;
let httpUrl = '';
let httpsUrl = '';
let https: HttpsServer;
let ca = '';
let ck = '';
let cs = '';
const dir = mkdtempSync(path.join(tmpdir(), 'rova-wc-tls-'));

interface Answer {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies of the foreign client, checked by toMatchObject
  data: any;
}
interface Client {
  get(endpoint: string, params?: Record<string, unknown>): Promise<Answer>;
  post(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<Answer>;
  put(endpoint: string, data: unknown, params?: Record<string, unknown>): Promise<Answer>;
  delete(endpoint: string, params?: Record<string, unknown>): Promise<Answer>;
}
type ClientClass = new (opts: Record<string, unknown>) => Client;
// The package is CommonJS compiled from ES modules: its class is `default` of the module (or of its default).
const pkg = wooPackage as unknown as { default: ClientClass | { default: ClientClass } };
const WooCommerceRestApi: ClientClass = typeof pkg.default === 'function' ? pkg.default : pkg.default.default;
interface Failure {
  response?: { status: number; data: { code: string; data: { status: number; reason?: string } } };
}

async function failure(p: Promise<unknown>): Promise<NonNullable<Failure['response']>> {
  try {
    await p;
  } catch (err) {
    const r = (err as Failure).response;
    if (r) return r;
    throw err;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  t = await makeApp();
  const admin = await t.userWithKey('shop_manager');
  const made = await t.inject({
    method: 'POST',
    url: '/wp-json/rova/v1/api-keys',
    headers: { 'x-rova-api-key': (await t.userWithKey('administrator')).key },
    payload: { user_id: admin.userId, scopes: ['read', 'write'], format: 'woocommerce', name: 'official client' },
  });
  expect(made.statusCode, made.body).toBe(201);
  ({ consumer_key: ck, consumer_secret: cs } = made.json() as { consumer_key: string; consumer_secret: string });
  httpUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });

  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  ca = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  // The same app answers on a TLS socket too (the request's socket is encrypted: no proxy header involved).
  https = createHttpsServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: ca }, (req, res) =>
    t.app.server.emit('request', req, res),
  );
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  httpsUrl = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (https ? https.close(() => resolve()) : resolve()));
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

function woo(url: string, key = ck, secret = cs, extra: Record<string, unknown> = {}): Client {
  return new WooCommerceRestApi({
    url,
    consumerKey: key,
    consumerSecret: secret,
    version: 'wc/v3',
    axiosConfig: { httpsAgent: new Agent({ ca }) },
    ...extra,
  });
}

async function lifecycle(api: Client, tag: string): Promise<void> {
  const a = await api.post('products', { name: `${tag} roof box`, regular_price: '30.00', sku: `${tag}-A` });
  expect(a.status).toBe(201);
  const b = await api.post('products', { name: `${tag} bike rack`, regular_price: '12.50', sku: `${tag}-B` });
  const aId = a.data.id as number;
  const bId = b.data.id as number;

  const list = await api.get('products', { per_page: 100 });
  expect(list.status).toBe(200);
  expect(Number(list.headers['x-wp-total'])).toBeGreaterThanOrEqual(2);
  expect((list.data as { id: number }[]).map((p) => p.id)).toEqual(expect.arrayContaining([aId, bId]));

  const bySlug = await api.get('products', { slug: a.data.slug as string });
  expect((bySlug.data as { id: number }[]).map((p) => p.id)).toEqual([aId]);

  const byInclude = await api.get('products', { include: [bId, aId], orderby: 'include', order: 'asc' });
  expect((byInclude.data as { id: number }[]).map((p) => p.id)).toEqual([bId, aId]);

  const updated = await api.put(`products/${aId}`, { sale_price: '25.00' });
  expect(updated.status).toBe(200);
  expect(updated.data).toMatchObject({ id: aId, sale_price: '25.00', price: '25.00', on_sale: true });

  // stock fields as WooCommerce shapes them (issue 34.7)
  const stocked = await api.put(`products/${aId}`, { manage_stock: true, stock_quantity: 0, backorders: 'notify' });
  expect(stocked.data).toMatchObject({
    manage_stock: true,
    stock_quantity: 0,
    backorders: 'notify',
    backorders_allowed: true,
    backordered: true,
    stock_status: 'onbackorder',
  });
  expect((await api.get(`products/${aId}`)).data).toMatchObject({
    manage_stock: true,
    stock_quantity: 0,
    backorders: 'notify',
    stock_status: 'onbackorder',
  });
  const refused = await failure(api.put(`products/${aId}`, { backorders: 'later' }));
  expect(refused.status).toBe(400);
  expect(refused.data).toMatchObject({
    code: 'rest_invalid_param',
    data: { params: { backorders: expect.any(String) } },
  });

  const batch = await api.post('products/batch', {
    create: [{ name: `${tag} snow chains`, regular_price: '15' }],
    update: [{ id: bId, regular_price: '11' }],
    delete: [aId],
  });
  expect(batch.status).toBe(200);
  expect(batch.data.create[0]).toMatchObject({ name: `${tag} snow chains`, regular_price: '15' });
  expect(batch.data.update[0]).toMatchObject({ id: bId, regular_price: '11' });
  expect(batch.data.delete[0]).toMatchObject({ id: aId });

  const trashed = await api.delete(`products/${bId}`);
  expect(trashed.data).toMatchObject({ id: bId, status: 'trash' });
  const gone = await api.delete(`products/${bId}`, { force: true });
  expect(gone.status).toBe(200);
  expect((await failure(api.get(`products/${bId}`))).status).toBe(404);
  await api.delete(`products/${batch.data.create[0].id as number}`, { force: true });
}

describe('official WooCommerce client over plain HTTP (OAuth 1.0a signatures)', () => {
  it('lists, filters by slug and include[], creates, updates, batches and deletes products', async () => {
    await lifecycle(woo(httpUrl), 'oauth');
  });
  it('a wrong secret signs wrongly: 401 invalid_signature, audited', async () => {
    const r = await failure(woo(httpUrl, ck, `cs_${'0'.repeat(40)}`).get('products'));
    expect(r.status).toBe(401);
    expect(r.data).toMatchObject({
      code: 'woocommerce_rest_cannot_view',
      data: { status: 401, reason: 'invalid_signature' },
    });
  });
  it('an unknown consumer key: 401 invalid_consumer_key', async () => {
    const r = await failure(woo(httpUrl, `ck_${'1'.repeat(40)}`).get('products'));
    expect(r.data.data.reason).toBe('invalid_consumer_key');
  });
  it('Basic or ?consumer_secret= over plain HTTP is refused before the key is even looked at', async () => {
    const basic = await fetch(`${httpUrl}/wp-json/wc/v3/products`, {
      headers: { authorization: `Basic ${Buffer.from(`${ck}:${cs}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
    expect(await basic.json()).toMatchObject({ data: { reason: 'insecure_transport' } });
    const query = await fetch(`${httpUrl}/wp-json/wc/v3/products?consumer_key=${ck}&consumer_secret=${cs}`);
    expect(query.status).toBe(401);
    expect(((await query.json()) as { data: { reason: string } }).data.reason).toBe('insecure_transport');
  });
});

describe('official WooCommerce client over HTTPS (HTTP Basic, self-signed certificate)', () => {
  it('lists, filters by slug and include[], creates, updates, batches and deletes products', async () => {
    await lifecycle(woo(httpsUrl), 'basic');
  });
  it('also with queryStringAuth (consumer_key/consumer_secret in the query)', async () => {
    const api = woo(httpsUrl, ck, cs, { queryStringAuth: true });
    const made = await api.post('products', { name: 'Query-string auth' });
    expect(made.status).toBe(201);
    const r = await api.get('products', { per_page: 1 });
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject([{ id: made.data.id as number }]);
  });
  it('a wrong secret: 401 invalid_consumer_key', async () => {
    const r = await failure(woo(httpsUrl, ck, `cs_${'f'.repeat(40)}`).get('products'));
    expect(r.status).toBe(401);
    expect(r.data.data.reason).toBe('invalid_consumer_key');
  });
});

describe('official WooCommerce client: a read object sent back whole', () => {
  it('GET a product, change one field, PUT the whole object back (id, permalink, dates, price_html …): 200; an unknown field is a 400 naming it', async () => {
    const api = woo(httpUrl);
    const made = await api.post('products', {
      name: 'Round-trip bike rack',
      regular_price: '12.50',
      sku: 'RT-CLIENT-1',
      images: [{ src: 'https://example.com/rack.png' }],
    });
    expect(made.status).toBe(201);
    const id = made.data.id as number;
    const read = (await api.get(`products/${id}`)).data as Record<string, unknown>;
    const put = await api.put(`products/${id}`, { ...read, sale_price: '10.00' });
    expect(put.status).toBe(200);
    expect(put.data).toMatchObject({
      id,
      name: 'Round-trip bike rack',
      sku: 'RT-CLIENT-1',
      regular_price: '12.50',
      sale_price: '10.00',
      price: '10.00',
      permalink: read.permalink,
    });
    const bad = await failure(api.put(`products/${id}`, { ...read, low_stock_amount: 3 }));
    expect(bad.status).toBe(400);
    expect(bad.data).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): low_stock_amount',
      data: { status: 400, params: { low_stock_amount: 'unknown field "low_stock_amount"' } },
    });
    await api.delete(`products/${id}`, { force: true });
  });
});
