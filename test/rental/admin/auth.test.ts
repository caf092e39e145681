import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.js';
import { API, insertCustomer, makeAdminApp } from './fixtures.js';

type Method = 'GET' | 'POST' | 'DELETE';
interface RouteCase {
  method: Method;
  path: string;
  body?: object;
  /** What an administrator gets with this (valid) request. */
  adminStatus: number;
}

let t: TestApp;
let keys: Record<'administrator' | 'shop_manager' | 'customer' | 'vendor', string>;
let readOnlyAdmin: string;
let customerId = 0;
let threadId = 0;

const ADMIN_ROUTES = (): RouteCase[] => [
  { method: 'GET', path: '/dashboard/stats', adminStatus: 200 },
  { method: 'GET', path: '/dashboard/recent-bookings', adminStatus: 200 },
  { method: 'GET', path: '/dashboard/recent-transfers', adminStatus: 200 },
  ...['overview', 'revenue', 'bookings', 'vehicles', 'customers'].map((r) => ({
    method: 'GET' as const,
    path: `/reports/${r}`,
    adminStatus: 200,
  })),
  { method: 'GET', path: '/customers', adminStatus: 200 },
  { method: 'GET', path: `/customers/${customerId}`, adminStatus: 200 },
  { method: 'DELETE', path: '/customers/bulk', body: { ids: [987654] }, adminStatus: 200 },
  { method: 'GET', path: '/messages', adminStatus: 200 },
  { method: 'GET', path: `/messages/${threadId}`, adminStatus: 200 },
  { method: 'POST', path: `/messages/${threadId}/reply`, body: { message: 'ok' }, adminStatus: 201 },
  { method: 'POST', path: `/messages/${threadId}/status`, body: { status: 'pending' }, adminStatus: 200 },
];

beforeAll(async () => {
  t = await makeAdminApp();
  keys = {
    administrator: (await t.userWithKey('administrator')).key,
    shop_manager: (await t.userWithKey('shop_manager')).key,
    customer: (await t.userWithKey('customer', ['read', 'write'], 'matrix_customer')).key,
    vendor: (await t.userWithKey('vendor')).key,
  };
  readOnlyAdmin = (await t.userWithKey('administrator', ['read'])).key;
  customerId = await insertCustomer(t.platform.db, { name: 'Matrix Customer', email: 'matrix_customer@example.test' });
  const r = await t.inject({
    method: 'POST',
    url: `${API}/my/messages`,
    headers: { 'x-rova-api-key': keys.customer },
    payload: { subject: 'Matrix', message: 'hello' },
  });
  expect(r.statusCode).toBe(201);
  threadId = r.json().data.thread.id;
});
afterAll(async () => t?.close());

const call = (rc: RouteCase, headers: Record<string, string> = {}) =>
  t.inject({ method: rc.method, url: `${API}${rc.path}`, headers, ...(rc.body ? { payload: rc.body } : {}) });

describe('auth matrix: every admin route', () => {
  it('anonymous → 401 AUTH_REQUIRED (rental envelope)', async () => {
    for (const rc of ADMIN_ROUTES()) {
      const r = await call(rc);
      expect(r.statusCode, `${rc.method} ${rc.path}`).toBe(401);
      expect(r.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED', message: expect.any(String) });
    }
  });

  it('an invalid API key → 401', async () => {
    for (const rc of ADMIN_ROUTES()) {
      expect((await call(rc, { 'x-rova-api-key': 'rova_not_a_key' })).statusCode, `${rc.method} ${rc.path}`).toBe(401);
    }
  });

  it.each(['customer', 'shop_manager', 'vendor'] as const)('%s → 403 PERMISSION_DENIED', async (role) => {
    for (const rc of ADMIN_ROUTES()) {
      const r = await call(rc, { 'x-rova-api-key': keys[role] });
      expect(r.statusCode, `${rc.method} ${rc.path}`).toBe(403);
      expect(r.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED' });
    }
  });

  it('administrator → allowed', async () => {
    for (const rc of ADMIN_ROUTES()) {
      const r = await call(rc, { 'x-rova-api-key': keys.administrator });
      expect(r.statusCode, `${rc.method} ${rc.path}: ${r.body}`).toBe(rc.adminStatus);
      expect(r.json()).toMatchObject({ success: true, data: expect.anything(), message: expect.any(String) });
    }
  });

  it('administrator key without the write scope → 403 on writes, 200 on reads', async () => {
    for (const rc of ADMIN_ROUTES()) {
      const r = await call(rc, { 'x-rova-api-key': readOnlyAdmin });
      expect(r.statusCode, `${rc.method} ${rc.path}`).toBe(rc.method === 'GET' ? 200 : 403);
    }
  });

  it('a denied bulk delete deletes nothing', async () => {
    const r = await t.inject({
      method: 'DELETE',
      url: `${API}/customers/bulk`,
      headers: { 'x-rova-api-key': keys.shop_manager },
      payload: { ids: [customerId] },
    });
    expect(r.statusCode).toBe(403);
    const d = await t.inject({
      method: 'GET',
      url: `${API}/customers/${customerId}`,
      headers: { 'x-rova-api-key': keys.administrator },
    });
    expect(d.statusCode).toBe(200);
  });
});

describe('auth matrix: customer side (/my/messages)', () => {
  const MY = (): RouteCase[] => [
    { method: 'GET', path: '/my/messages', adminStatus: 200 },
    { method: 'POST', path: '/my/messages', body: { subject: 's', message: 'm' }, adminStatus: 201 },
    { method: 'GET', path: `/my/messages/${threadId}`, adminStatus: 200 },
    { method: 'POST', path: `/my/messages/${threadId}/reply`, body: { message: 'm' }, adminStatus: 201 },
    { method: 'POST', path: `/my/messages/${threadId}/close`, adminStatus: 200 },
  ];
  it('anonymous → 401 AUTH_REQUIRED', async () => {
    for (const rc of MY()) {
      const r = await call(rc);
      expect(r.statusCode, `${rc.method} ${rc.path}`).toBe(401);
      expect(r.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
    }
  });
  it('the linked customer → allowed', async () => {
    for (const rc of MY()) {
      const r = await call(rc, { 'x-rova-api-key': keys.customer });
      expect(r.statusCode, `${rc.method} ${rc.path}: ${r.body}`).toBe(rc.adminStatus);
    }
  });
  it.each(['administrator', 'shop_manager', 'vendor'] as const)(
    '%s without a linked customer → 403 PERMISSION_DENIED',
    async (role) => {
      for (const rc of MY()) {
        const r = await call(rc, { 'x-rova-api-key': keys[role] });
        expect(r.statusCode, `${rc.method} ${rc.path}`).toBe(403);
        expect(r.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED' });
      }
    },
  );
});

describe('OpenAPI', () => {
  it('documents every route of this area', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const want: [string, string][] = [
      ['get', '/dashboard/stats'],
      ['get', '/dashboard/recent-bookings'],
      ['get', '/dashboard/recent-transfers'],
      ['get', '/reports/overview'],
      ['get', '/reports/revenue'],
      ['get', '/reports/bookings'],
      ['get', '/reports/vehicles'],
      ['get', '/reports/customers'],
      ['get', '/customers'],
      ['get', '/customers/{id}'],
      ['delete', '/customers/bulk'],
      ['get', '/messages'],
      ['get', '/messages/{id}'],
      ['post', '/messages/{id}/reply'],
      ['post', '/messages/{id}/status'],
      ['get', '/my/messages'],
      ['post', '/my/messages'],
      ['get', '/my/messages/{id}'],
      ['post', '/my/messages/{id}/reply'],
      ['post', '/my/messages/{id}/close'],
    ];
    for (const [m, p] of want) expect(doc.paths[`/wp-json/rova-rental/v1${p}`]?.[m], `${m} ${p}`).toBeDefined();
  });
});
