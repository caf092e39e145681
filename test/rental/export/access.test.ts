import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_KEY } from '../../../src/modules/rental/export/history.js';
import type { TestApp } from '../../helpers/app.js';
import { API, makeAdminApp, seedExportData } from './fixtures.js';

let t: TestApp;
const keys = { admin: '', readOnlyAdmin: '', shop: '', customer: '', vendor: '' };

beforeAll(async () => {
  t = await makeAdminApp();
  keys.admin = (await t.userWithKey('administrator')).key;
  keys.readOnlyAdmin = (await t.userWithKey('administrator', ['read'])).key;
  keys.shop = (await t.userWithKey('shop_manager')).key;
  keys.customer = (await t.userWithKey('customer')).key;
  keys.vendor = (await t.userWithKey('vendor')).key;
  await seedExportData(t.platform.db);
}, 180_000);
afterAll(async () => t?.close());

const as = (key: string | null) => (key ? { 'x-rova-api-key': key } : {});
const call = (key: string | null, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) =>
  t.inject({
    method,
    url: `${API}/admin/export${path}`,
    headers: as(key),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const historyCount = async () => ((await t.platform.transients.get<unknown[]>(HISTORY_KEY)) ?? []).length;

describe('who may export', () => {
  const routes: [string, 'GET' | 'POST' | 'DELETE', string, unknown?][] = [
    ['export', 'POST', '', { type: 'bookings', format: 'csv' }],
    ['preview', 'POST', '/preview', { type: 'bookings' }],
    ['history', 'GET', '/history'],
    ['delete', 'DELETE', '/exp_abc'],
  ];
  for (const [name, method, path, body] of routes) {
    it(`${name}: anonymous → 401, customer and vendor → 403`, async () => {
      const anon = await call(null, method, path, body);
      expect(anon.statusCode).toBe(401);
      expect(anon.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED' });
      for (const k of [keys.customer, keys.vendor]) {
        const r = await call(k, method, path, body);
        expect(r.statusCode).toBe(403);
        expect(r.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED' });
      }
    });
  }

  it('a read-only administrator key may export, preview and list, not delete', async () => {
    expect((await call(keys.readOnlyAdmin, 'POST', '', { type: 'customers', format: 'json' })).statusCode).toBe(200);
    expect((await call(keys.readOnlyAdmin, 'POST', '/preview', { type: 'customers' })).statusCode).toBe(200);
    expect((await call(keys.readOnlyAdmin, 'GET', '/history')).statusCode).toBe(200);
    expect((await call(keys.readOnlyAdmin, 'DELETE', '/exp_abc')).statusCode).toBe(403);
  });

  it('shop managers (manage_store) → 403 on every export route and type, vehicles included (spec §5: manage_options)', async () => {
    const before = await historyCount();
    for (const type of [
      'vehicles',
      'bookings',
      'transfers',
      'customers',
      'messages',
      'payouts',
      'ledger_entries',
      'audit_log',
    ]) {
      for (const [path, body] of [
        ['', { type, format: 'csv' }],
        ['/preview', { type }],
      ] as const) {
        const r = await call(keys.shop, 'POST', path, body);
        expect(r.statusCode, `${type} ${path}`).toBe(403);
        expect(r.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED' });
        expect(r.json().message).toMatch(/manage_options/);
      }
    }
    expect(await historyCount()).toBe(before);
    const adminRun = String(
      (await call(keys.admin, 'POST', '', { type: 'vehicles', format: 'csv' })).headers['x-rova-export-id'],
    );
    for (const [method, path] of [
      ['GET', '/history'],
      ['DELETE', `/${adminRun}`],
    ] as const) {
      const r = await call(keys.shop, method, path);
      expect(r.statusCode, `${method} ${path}`).toBe(403);
      expect(r.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED' });
    }
    const all = (await call(keys.admin, 'GET', '/history')).json().data.items as { id: string }[];
    expect(all.map((e) => e.id)).toContain(adminRun);
  });
});

describe('every bad input → 4xx (never a 500, never a history entry)', () => {
  const bad: [string, unknown, number, string][] = [
    ['no body', undefined, 400, 'INVALID_PARAMS'],
    ['array body', [1], 400, 'INVALID_PARAMS'],
    ['missing type', { format: 'csv' }, 400, 'INVALID_PARAMS'],
    ['unknown type', { type: 'payments', format: 'csv' }, 400, 'INVALID_PARAMS'],
    ['type of the wrong kind', { type: 7, format: 'csv' }, 400, 'INVALID_PARAMS'],
    ['missing format', { type: 'bookings' }, 400, 'INVALID_PARAMS'],
    ['unknown format', { type: 'bookings', format: 'xlsx' }, 400, 'INVALID_PARAMS'],
    ['impossible date', { type: 'bookings', format: 'csv', date_from: '2026-02-30' }, 400, 'INVALID_PARAMS'],
    ['short date', { type: 'bookings', format: 'csv', date_to: '2026-1-1' }, 400, 'INVALID_PARAMS'],
    ['date with a time', { type: 'bookings', format: 'csv', date_to: '2026-01-01T00:00:00Z' }, 400, 'INVALID_PARAMS'],
    ['year 0000', { type: 'bookings', format: 'csv', date_from: '0000-01-01' }, 400, 'INVALID_PARAMS'],
    [
      'from after to',
      { type: 'bookings', format: 'csv', date_from: '2026-12-31', date_to: '2026-01-01' },
      400,
      'INVALID_DATE_RANGE',
    ],
    ['status the type does not have', { type: 'bookings', format: 'csv', status: 'replied' }, 400, 'INVALID_PARAMS'],
    ['status on a type without one', { type: 'customers', format: 'csv', status: 'active' }, 400, 'INVALID_PARAMS'],
    ['unknown parameter', { type: 'bookings', format: 'csv', stauts: 'confirmed' }, 400, 'INVALID_PARAMS'],
    ["another type's filter", { type: 'bookings', format: 'csv', priority: 'high' }, 400, 'INVALID_PARAMS'],
    ['bad id filter', { type: 'bookings', format: 'csv', vehicle_id: 0 }, 400, 'INVALID_PARAMS'],
    ['text id filter', { type: 'bookings', format: 'csv', vehicle_id: 'abc' }, 400, 'INVALID_PARAMS'],
    ['huge id filter', { type: 'bookings', format: 'csv', vehicle_id: 2 ** 60 }, 400, 'INVALID_PARAMS'],
    ['bad enum filter', { type: 'bookings', format: 'csv', payment_status: 'maybe' }, 400, 'INVALID_PARAMS'],
    ['NUL in a text filter', { type: 'vehicles', format: 'csv', category: 'a\u0000b' }, 400, 'INVALID_PARAMS'],
  ];
  for (const [name, body, status, code] of bad) {
    it(`export: ${name} → ${status} ${code}`, async () => {
      const before = await historyCount();
      const r = await t.inject({
        method: 'POST',
        url: `${API}/admin/export`,
        headers: { ...as(keys.admin), 'content-type': 'application/json' },
        payload: body === undefined ? '' : JSON.stringify(body),
      });
      expect(r.statusCode, r.body).toBe(status);
      expect(r.json()).toMatchObject({ success: false, error_code: code });
      expect(typeof r.json().message).toBe('string');
      expect(await historyCount()).toBe(before);
      if (body && typeof body === 'object' && !Array.isArray(body) && 'format' in body) {
        const { format: _f, ...previewBody } = body as Record<string, unknown>;
        void _f;
        if (name !== 'unknown format') {
          const p = await call(keys.admin, 'POST', '/preview', previewBody);
          expect(p.statusCode, `preview ${name}`).toBe(status);
          expect(p.json()).toMatchObject({ success: false, error_code: code });
        }
      }
    });
  }

  it('malformed JSON, bad paging, bad ids → 400', async () => {
    const r = await t.inject({
      method: 'POST',
      url: `${API}/admin/export`,
      headers: { ...as(keys.admin), 'content-type': 'application/json' },
      payload: '{"type":',
    });
    expect(r.statusCode).toBe(400);
    for (const q of ['?page=0', '?per_page=101', '?page=abc'])
      expect((await call(keys.admin, 'GET', `/history${q}`)).statusCode).toBe(400);
    expect((await call(keys.admin, 'DELETE', '/%00')).statusCode).toBe(400);
  });
});
