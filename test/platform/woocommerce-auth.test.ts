// @integration: the WooCommerce replay cache lives in Redis when REDIS_URL is set
import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

/** WooCommerce credential forms, signed here by hand (RFC 5849), through inject: replay, window, methods, proxies. */

let t: TestApp;
let proxied: TestApp;
let adminKey = '';
let ck = '';
let cs = '';
let keyId = 0;
let managerId = 0;

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!*'()]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

function signed(
  method: string,
  path: string,
  query: [string, string][],
  opts: { secret?: string; alg?: 'HMAC-SHA1' | 'HMAC-SHA256'; nonce?: string; ts?: number; key?: string } = {},
): string {
  const oauth: [string, string][] = [
    ['oauth_consumer_key', opts.key ?? ck],
    ['oauth_nonce', opts.nonce ?? randomBytes(12).toString('hex')],
    ['oauth_signature_method', opts.alg ?? 'HMAC-SHA256'],
    ['oauth_timestamp', String(opts.ts ?? Math.floor(Date.now() / 1000))],
  ];
  const all = [...query, ...oauth];
  const norm = all
    .map(([k, v]) => [enc(k), enc(v)])
    .sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const base = `${method}&${enc(`http://localhost:80${path}`)}&${enc(norm)}`;
  const sig = createHmac(opts.alg === 'HMAC-SHA1' ? 'sha1' : 'sha256', `${opts.secret ?? cs}&`)
    .update(base)
    .digest('base64');
  return `${path}?${[...all, ['oauth_signature', sig]].map(([k, v]) => `${enc(k!)}=${enc(v!)}`).join('&')}`;
}

beforeAll(async () => {
  t = await makeApp();
  adminKey = (await t.userWithKey('administrator')).key;
  const manager = await t.userWithKey('shop_manager');
  managerId = manager.userId;
  const made = await t.inject({
    method: 'POST',
    url: '/wp-json/rova/v1/api-keys',
    headers: { 'x-rova-api-key': adminKey },
    payload: { user_id: manager.userId, scopes: ['read', 'write'], format: 'woocommerce' },
  });
  expect(made.statusCode).toBe(201);
  expect(made.headers['cache-control']).toBe('no-store');
  const body = made.json() as {
    consumer_key: string;
    consumer_secret: string;
    api_key: { id: number; prefix: string };
  };
  ({ consumer_key: ck, consumer_secret: cs } = body);
  keyId = body.api_key.id;
  expect(ck).toMatch(/^ck_[0-9a-f]{40}$/);
  expect(cs).toMatch(/^cs_[0-9a-f]{40}$/);
  expect(body.api_key.prefix).toBe(ck.slice(0, 12));
  proxied = await makeApp({ env: { TRUST_PROXY: 'loopback' } });
}, 300_000);
afterAll(async () => {
  await t?.close();
  await proxied?.close();
});

describe('storage', () => {
  it('neither the key nor the secret is stored in clear; the sealed secret is not the secret', async () => {
    const [row] = await rows<Record<string, string>>(
      t.platform.db,
      sql`SELECT key_hash, wc_secret_hash, wc_secret_sealed FROM rova_api_keys WHERE id = ${keyId}`,
    );
    const text = JSON.stringify(row);
    expect(text).not.toContain(ck.slice(3));
    expect(text).not.toContain(cs.slice(3));
    expect(row!.wc_secret_sealed).toMatch(/^v1\./);
  });
  it('the consumer key alone is not an API key', async () => {
    const r = await t.inject({ method: 'GET', url: '/wp-json/wc/v3/products', headers: { 'x-rova-api-key': ck } });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ data: { reason: 'invalid_api_key' } });
  });
});

describe('OAuth 1.0a over plain HTTP', () => {
  it('HMAC-SHA256 and HMAC-SHA1 signatures authenticate; list parameters are signed too', async () => {
    for (const alg of ['HMAC-SHA256', 'HMAC-SHA1'] as const) {
      const r = await t.inject({
        method: 'GET',
        url: signed(
          'GET',
          '/wp-json/wc/v3/products',
          [
            ['per_page', '5'],
            ['include[]', '1'],
            ['include[]', '2'],
          ],
          { alg },
        ),
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    const me = await t.inject({ method: 'GET', url: signed('GET', '/wp-json/rova/v1/auth/me', []) });
    expect(me.json()).toMatchObject({ method: 'api_key', scopes: ['read', 'write'] });
  });
  it('a nonce works once (shared replay cache): the same request again is 401 replayed_nonce, audited', async () => {
    const url = signed('GET', '/wp-json/wc/v3/products', [], { nonce: 'once-only-nonce' });
    expect((await t.inject({ method: 'GET', url })).statusCode).toBe(200);
    const again = await t.inject({ method: 'GET', url });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({
      code: 'woocommerce_rest_cannot_view',
      data: { status: 401, reason: 'replayed_nonce' },
    });
    const audit = await rows<{ n: number }>(
      t.platform.db,
      sql`SELECT count(*)::int AS n FROM rova_audit_log WHERE details->>'auth_failure' = 'replayed_nonce'`,
    );
    expect(audit[0]!.n).toBe(1);
  });
  it('a timestamp outside ±15 minutes is refused', async () => {
    for (const ts of [Math.floor(Date.now() / 1000) - 16 * 60, Math.floor(Date.now() / 1000) + 16 * 60]) {
      const r = await t.inject({ method: 'GET', url: signed('GET', '/wp-json/wc/v3/products', [], { ts }) });
      expect(r.json()).toMatchObject({ data: { status: 401, reason: 'invalid_timestamp' } });
    }
  });
  it('a tampered parameter breaks the signature; missing oauth fields and other methods are refused', async () => {
    const url = signed('GET', '/wp-json/wc/v3/products', [['per_page', '5']]).replace('per_page=5', 'per_page=6');
    expect((await t.inject({ method: 'GET', url })).json()).toMatchObject({ data: { reason: 'invalid_signature' } });
    const plain = await t.inject({
      method: 'GET',
      url: `/wp-json/wc/v3/products?oauth_consumer_key=${ck}&oauth_signature=x`,
    });
    expect(plain.json()).toMatchObject({ data: { reason: 'invalid_oauth_request' } });
    const rsa = signed('GET', '/wp-json/wc/v3/products', []).replace('HMAC-SHA256', 'RSA-SHA1');
    expect((await t.inject({ method: 'GET', url: rsa })).json()).toMatchObject({
      data: { reason: 'invalid_oauth_request' },
    });
  });
  it('a write is signed with its method; a revoked key stops at once', async () => {
    const made = await t.inject({
      method: 'POST',
      url: signed('POST', '/wp-json/wc/v3/products', []),
      payload: { name: 'Signed write' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const k2 = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/api-keys',
      headers: { 'x-rova-api-key': adminKey },
      payload: { user_id: managerId, format: 'woocommerce' },
    });
    expect(k2.statusCode).toBe(201);
    const other = k2.json() as { consumer_key: string; consumer_secret: string; api_key: { id: number } };
    const before = await t.inject({
      method: 'GET',
      url: signed('GET', '/wp-json/wc/v3/products', [], { key: other.consumer_key, secret: other.consumer_secret }),
    });
    expect(before.statusCode).toBe(200);
    await t.inject({
      method: 'DELETE',
      url: `/wp-json/rova/v1/api-keys/${other.api_key.id}`,
      headers: { 'x-rova-api-key': adminKey },
    });
    const r = await t.inject({
      method: 'GET',
      url: signed('GET', '/wp-json/wc/v3/products', [], { key: other.consumer_key, secret: other.consumer_secret }),
    });
    expect(r.json()).toMatchObject({ data: { reason: 'revoked_api_key' } });
  });
});

describe('HTTP Basic and consumer_key query', () => {
  const basic = (k: string, s: string) => `Basic ${Buffer.from(`${k}:${s}`).toString('base64')}`;
  it('X-Forwarded-Proto: https counts only from a trusted proxy (TRUST_PROXY)', async () => {
    const r = await t.inject({
      method: 'GET',
      url: '/wp-json/wc/v3/products',
      headers: { authorization: basic(ck, cs), 'x-forwarded-proto': 'https' },
    });
    expect(r.json()).toMatchObject({ data: { status: 401, reason: 'insecure_transport' } });
  });
  it('behind a trusted proxy saying https: Basic and the query form work, a wrong secret does not', async () => {
    const manager = await proxied.userWithKey('shop_manager');
    const w = await proxied.platform.auth.createWooCommerceKey({ userId: manager.userId, scopes: ['read'] });
    const h = { 'x-forwarded-proto': 'https' };
    const ok = await proxied.inject({
      method: 'GET',
      url: '/wp-json/wc/v3/products',
      headers: { ...h, authorization: basic(w.consumerKey, w.consumerSecret) },
    });
    expect(ok.statusCode).toBe(200);
    const q = await proxied.inject({
      method: 'GET',
      url: `/wp-json/wc/v3/products?consumer_key=${w.consumerKey}&consumer_secret=${w.consumerSecret}`,
      headers: h,
    });
    expect(q.statusCode).toBe(200);
    const bad = await proxied.inject({
      method: 'GET',
      url: '/wp-json/wc/v3/products',
      headers: { ...h, authorization: basic(w.consumerKey, cs) },
    });
    expect(bad.json()).toMatchObject({ data: { status: 401, reason: 'invalid_consumer_key' } });
    const readOnly = await proxied.inject({
      method: 'POST',
      url: '/wp-json/wc/v3/products',
      headers: { ...h, authorization: basic(w.consumerKey, w.consumerSecret) },
      payload: { name: 'x' },
    });
    expect(readOnly.statusCode).toBe(403);
  });
});
