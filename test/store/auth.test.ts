import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, WC } from './helpers.js';

let t: TestApp;
let admin: ReturnType<typeof client>;
let product = 0;
let variable = 0;
let variation = 0;

beforeAll(async () => {
  t = await makeApp();
  admin = client(t, (await t.userWithKey('administrator')).key);
  product = (await admin.post('/products', { name: 'Auth simple', regular_price: '5' })).json().id as number;
  variable = (await admin.post('/products', { name: 'Auth variable', type: 'variable' })).json().id as number;
  variation = (await admin.post(`/products/${variable}/variations`, { regular_price: '3' })).json().id as number;
});
afterAll(async () => t?.close());

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: () => Promise<string> | string;
  body?: unknown;
  ok: number;
}

const freshProduct = async () => (await admin.post('/products', { name: 'Victim' })).json().id as number;
const freshVariation = async () =>
  (await admin.post(`/products/${variable}/variations`, { regular_price: '1' })).json().id as number;

const CALLS: Call[] = [
  { method: 'GET', url: () => '/products', ok: 200 },
  { method: 'POST', url: () => '/products', body: { name: 'Made' }, ok: 201 },
  { method: 'POST', url: () => '/products/batch', body: { create: [{ name: 'Batched' }] }, ok: 200 },
  { method: 'GET', url: () => `/products/${product}`, ok: 200 },
  { method: 'PUT', url: () => `/products/${product}`, body: { name: 'Put' }, ok: 200 },
  { method: 'PATCH', url: () => `/products/${product}`, body: { name: 'Patched' }, ok: 200 },
  { method: 'DELETE', url: async () => `/products/${await freshProduct()}`, ok: 200 },
  { method: 'GET', url: () => `/products/${variable}/variations`, ok: 200 },
  { method: 'POST', url: () => `/products/${variable}/variations`, body: { regular_price: '2' }, ok: 201 },
  { method: 'GET', url: () => `/products/${variable}/variations/${variation}`, ok: 200 },
  { method: 'PUT', url: () => `/products/${variable}/variations/${variation}`, body: { regular_price: '4' }, ok: 200 },
  {
    method: 'PATCH',
    url: () => `/products/${variable}/variations/${variation}`,
    body: { regular_price: '4.5' },
    ok: 200,
  },
  {
    method: 'DELETE',
    url: async () => `/products/${variable}/variations/${await freshVariation()}?force=true`,
    ok: 200,
  },
];

async function send(c: Call, headers: Record<string, string>) {
  const url = WC + (await c.url());
  return t.inject({ method: c.method, url, headers, ...(c.body !== undefined ? { payload: c.body as object } : {}) });
}

describe('auth matrix over every wc/v3 route', () => {
  it('anonymous → 401 woocommerce_rest_cannot_view', async () => {
    for (const c of CALLS) {
      const r = await send(c, {});
      expect(r.statusCode, `${c.method} ${await c.url()}`).toBe(401);
      expect(r.json()).toMatchObject({ code: 'woocommerce_rest_cannot_view', data: { status: 401 } });
    }
  });
  it('customer and vendor → 403', async () => {
    for (const role of ['customer', 'vendor'] as const) {
      const { key } = await t.userWithKey(role);
      for (const c of CALLS) {
        const r = await send(c, { 'x-rova-api-key': key });
        expect(r.statusCode, `${role} ${c.method}`).toBe(403);
        expect(r.json()).toMatchObject({ code: 'woocommerce_rest_cannot_view', data: { status: 403 } });
      }
    }
  });
  it('shop_manager and administrator → success', async () => {
    for (const role of ['shop_manager', 'administrator'] as const) {
      const { key } = await t.userWithKey(role);
      for (const c of CALLS) {
        const r = await send(c, { 'x-rova-api-key': key });
        expect(r.statusCode, `${role} ${c.method} ${r.body}`).toBe(c.ok);
      }
    }
  });
  it('read-only key: reads pass, writes → 403', async () => {
    const { key } = await t.userWithKey('shop_manager', ['read']);
    for (const c of CALLS) {
      const r = await send(c, { 'x-rova-api-key': key });
      expect(r.statusCode, `${c.method} ${await c.url()}`).toBe(c.method === 'GET' ? 200 : 403);
    }
  });
  it('write-only key cannot read', async () => {
    const { key } = await t.userWithKey('shop_manager', ['write']);
    expect((await send(CALLS[0]!, { 'x-rova-api-key': key })).statusCode).toBe(403);
  });
  it('revoked and expired keys → 401', async () => {
    const { key, keyId } = await t.userWithKey('administrator');
    await t.platform.auth.revokeApiKey(keyId);
    const expired = await t.userWithKey('administrator');
    await t.platform.db.execute(
      sql`UPDATE rova_api_keys SET expires_at = now() - interval '1 minute' WHERE id = ${expired.keyId}`,
    );
    for (const k of [key, expired.key]) {
      for (const c of [CALLS[0]!, CALLS[1]!]) {
        const r = await send(c, { 'x-rova-api-key': k });
        expect(r.statusCode).toBe(401);
        expect(r.json().data.status).toBe(401);
      }
    }
  });
  it('a cookie session reads with a nonce, not without', async () => {
    await t.userWithKey('shop_manager', ['read'], 'manager_cookie');
    const l = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      payload: { login: 'manager_cookie', password: 'correct horse battery' },
    });
    const cookie = l.cookies.find((c) => c.name === 'rova_session')!;
    const nonce = l.json().nonce as string;
    const without = await t.inject({ method: 'GET', url: `${WC}/products`, cookies: { rova_session: cookie.value } });
    expect(without.statusCode).toBe(401);
    const withNonce = await t.inject({
      method: 'GET',
      url: `${WC}/products`,
      cookies: { rova_session: cookie.value },
      headers: { 'x-wp-nonce': nonce },
    });
    expect(withNonce.statusCode).toBe(200);
  });
});
