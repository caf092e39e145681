import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { V1 } from './helpers.js';

type M = 'GET' | 'POST' | 'PUT' | 'DELETE';
const ROUTES: [M, string][] = [
  ['GET', '/vehicles'],
  ['POST', '/vehicles'],
  ['GET', '/vehicles/1'],
  ['PUT', '/vehicles/1'],
  ['DELETE', '/vehicles/1'],
  ['POST', '/locations'],
  ['PUT', '/locations/1'],
  ['DELETE', '/locations/1'],
  ['GET', '/transfer-routes'],
  ['POST', '/transfer-routes'],
  ['GET', '/transfer-routes/1'],
  ['PUT', '/transfer-routes/1'],
  ['DELETE', '/transfer-routes/1'],
  ['GET', '/pricing-rules'],
  ['POST', '/pricing-rules'],
  ['GET', '/pricing-rules/1'],
  ['PUT', '/pricing-rules/1'],
  ['DELETE', '/pricing-rules/1'],
  ['POST', '/customers'],
  ['PUT', '/customers/1'],
  ['GET', '/bookings'],
  ['POST', '/bookings'],
  ['GET', '/bookings/1'],
  ['PUT', '/bookings/1'],
  ['POST', '/bookings/1/status'],
];
const WRITE = (m: M) => m !== 'GET';

describe('rental auth matrix (every admin route of the core)', () => {
  let t: TestApp;
  let keys: Record<'customer' | 'shop_manager' | 'administrator' | 'readonly', string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000' } });
    keys = {
      customer: (await t.userWithKey('customer')).key,
      shop_manager: (await t.userWithKey('shop_manager')).key,
      administrator: (await t.userWithKey('administrator')).key,
      readonly: (await t.userWithKey('administrator', ['read'])).key,
    };
  });
  afterAll(async () => t?.close());

  const call = (m: M, path: string, key?: string) =>
    t.inject({
      method: m,
      url: V1 + path,
      headers: key ? { 'x-rova-api-key': key } : {},
      ...(WRITE(m) ? { payload: {} } : {}),
    });

  it.each(ROUTES)('%s %s', async (m, path) => {
    const anon = await call(m, path);
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ success: false, error_code: 'AUTH_REQUIRED', message: expect.any(String) });
    for (const who of ['customer', 'shop_manager'] as const) {
      const r = await call(m, path, keys[who]);
      expect(r.statusCode, who).toBe(403);
      expect(r.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED' });
    }
    const ok = await call(m, path, keys.administrator);
    expect([401, 403]).not.toContain(ok.statusCode);
    expect(ok.json()).toHaveProperty('success');
    if (WRITE(m)) {
      const ro = await call(m, path, keys.readonly);
      expect(ro.statusCode).toBe(403);
      expect(ro.json().error_code).toBe('PERMISSION_DENIED');
    }
  });

  it('every non-public rova-rental/v1 operation in the OpenAPI document (core and admin) → 401 anonymous, 403 for a shop manager', async () => {
    const spec = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    // a photo's file is public like the storefront that shows it (test/rental/market/vehicle-photos.test.ts)
    const PUBLIC = new Set([
      'get /health',
      'get /locations',
      'post /availability',
      'get ',
      'get /vehicles/{id}/photos/{photoId}/{file}',
    ]);
    const ops = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith(V1))
      .flatMap(([path, o]) => Object.keys(o).map((m) => [m, path.slice(V1.length)] as const))
      // /my/* is the storefront customer's own side, and applying to become a vendor is open to any logged-in
      // user (authenticated, not admin: test/rental/market covers who may do what there)
      .filter(
        ([m, path]) =>
          !PUBLIC.has(`${m} ${path}`) &&
          !path.startsWith('/my/') &&
          !path.startsWith('/vendor/application') &&
          !path.startsWith('/vendor-documents/'),
      );
    expect(ops.length).toBeGreaterThanOrEqual(ROUTES.length + 10);
    for (const [m, path] of ROUTES)
      expect(ops.map(([a, b]) => `${a.toUpperCase()} ${b.replace('{id}', '1')}`)).toContain(`${m} ${path}`);
    for (const [m, path] of ops) {
      const url = path.replace('{id}', '1');
      const anon = await call(m.toUpperCase() as M, url);
      expect(anon.statusCode, `${m} ${path}`).toBe(401);
      expect(anon.json().error_code).toBe('AUTH_REQUIRED');
      // Export is the one admin area a shop manager enters (vehicles only, which hold no personal data): its
      // own matrix is test/rental/export/access.test.ts.
      if (path.startsWith('/admin/export')) continue;
      const sm = await call(m.toUpperCase() as M, url, keys.shop_manager);
      expect(sm.statusCode, `${m} ${path}`).toBe(403);
      expect(sm.json().error_code).toBe('PERMISSION_DENIED');
    }
  });

  it('public endpoints need no credentials; unknown rental route → 404 RESOURCE_NOT_FOUND', async () => {
    expect((await t.inject({ method: 'GET', url: `${V1}/locations` })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: `${V1}/health` })).statusCode).toBe(200);
    const nf = await t.inject({ method: 'GET', url: `${V1}/nope` });
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toMatchObject({ success: false, error_code: 'RESOURCE_NOT_FOUND' });
  });

  it('/customers/bulk is not taken for /customers/{id}', async () => {
    const r = await t.inject({
      method: 'PUT',
      url: `${V1}/customers/bulk`,
      headers: { 'x-rova-api-key': keys.administrator },
      payload: { name: 'x' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error_code).toBe('INVALID_PARAMS');
  });
});

describe('per-API-key write limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_PUBLIC_RATE_LIMIT: '3' } });
  });
  afterAll(async () => t?.close());

  it('61st write in a minute → 429 RATE_LIMIT_EXCEEDED with headers; another key is independent; reads do not count', async () => {
    const a = (await t.userWithKey('administrator')).key;
    const b = (await t.userWithKey('administrator')).key;
    const write = (key: string) =>
      t.inject({
        method: 'PUT',
        url: `${V1}/customers/999999`,
        headers: { 'x-rova-api-key': key },
        payload: { name: 'x' },
      });
    for (let i = 1; i <= 60; i++) {
      const r = await write(a);
      expect(r.statusCode, `write ${i}`).toBe(404);
      expect(r.headers['x-ratelimit-limit']).toBe('60');
      expect(r.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      if (i % 20 === 0)
        expect(
          (await t.inject({ method: 'GET', url: `${V1}/vehicles`, headers: { 'x-rova-api-key': a } })).statusCode,
        ).toBe(200);
    }
    const over = await write(a);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ success: false, error_code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.headers['x-ratelimit-limit']).toBe('60');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(over.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    // the admin helper's writes share the scope and the counter
    const adminWrite = await t.inject({
      method: 'DELETE',
      url: `${V1}/customers/bulk`,
      headers: { 'x-rova-api-key': a },
      payload: { ids: [1] },
    });
    expect(adminWrite.statusCode).toBe(429);
    const other = await write(b);
    expect(other.statusCode).toBe(404);
    expect(other.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('public read limit per address → 429 after the limit', async () => {
    for (let i = 0; i < 3; i++)
      expect((await t.inject({ method: 'GET', url: `${V1}/locations` })).statusCode).toBe(200);
    const r = await t.inject({ method: 'GET', url: `${V1}/locations` });
    expect(r.statusCode).toBe(429);
    expect(r.json().error_code).toBe('RATE_LIMIT_EXCEEDED');
    expect(r.headers['retry-after']).toBeDefined();
  });
});
