import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
const keys: Record<string, string> = {};
let revokedKey = '';
let expiredKey = '';
let readOnlyAdmin = '';

async function login(name: string): Promise<{ cookie: string; nonce: string }> {
  const r = await t.inject({
    method: 'POST',
    url: '/wp-json/rova/v1/auth/login',
    payload: { login: name, password: 'correct horse battery' },
  });
  expect(r.statusCode).toBe(200);
  return { cookie: r.cookies.find((c) => c.name === 'rova_session')!.value, nonce: r.json().nonce };
}

beforeAll(async () => {
  t = await makeApp();
  for (const role of ['customer', 'shop_manager', 'administrator', 'vendor'] as const)
    keys[role] = (await t.userWithKey(role, ['read', 'write'], `u_${role}`)).key;
  const rev = await t.userWithKey('administrator', ['read', 'write'], 'revoked_admin');
  revokedKey = rev.key;
  await t.platform.auth.revokeApiKey(rev.keyId);
  const admin = (await t.platform.auth.findUser('u_administrator'))!;
  const exp = await t.platform.auth.createApiKey({
    userId: admin.id,
    scopes: ['read', 'write'],
    expiresAt: new Date(Date.now() + 300),
  });
  expiredKey = exp.key;
  readOnlyAdmin = (await t.platform.auth.createApiKey({ userId: admin.id, scopes: ['read'] })).key;
  await new Promise((r) => setTimeout(r, 350));
});
afterAll(async () => t?.close());

// Representative routes: an admin read (manage_options), an admin write, an authenticated-only read.
const ADMIN_READ = { method: 'GET' as const, url: '/wp-json/rova/v1/users' };
const ADMIN_WRITE = {
  method: 'POST' as const,
  url: '/wp-json/rova/v1/users',
  payload: {
    login: 'x_' + Math.random().toString(36).slice(2, 8),
    email: `x${Date.now()}@example.test`,
    role: 'customer',
  },
};
const SELF = { method: 'GET' as const, url: '/wp-json/rova/v1/auth/me' };

describe('auth matrix', () => {
  const cases: [string, () => Record<string, string>, number, number, number][] = [
    ['anonymous', () => ({}), 401, 401, 401],
    ['customer', () => ({ 'x-rova-api-key': keys.customer! }), 403, 403, 200],
    ['vendor', () => ({ 'x-rova-api-key': keys.vendor! }), 403, 403, 200],
    ['shop_manager', () => ({ 'x-rova-api-key': keys.shop_manager! }), 403, 403, 200],
    ['administrator (X-Rova-API-Key)', () => ({ 'x-rova-api-key': keys.administrator! }), 200, 201, 200],
    ['administrator (Bearer)', () => ({ authorization: `Bearer ${keys.administrator}` }), 200, 201, 200],
    ['revoked key', () => ({ 'x-rova-api-key': revokedKey }), 401, 401, 401],
    ['expired key', () => ({ 'x-rova-api-key': expiredKey }), 401, 401, 401],
    ['read-only key', () => ({ 'x-rova-api-key': readOnlyAdmin }), 200, 403, 200],
    ['garbage key', () => ({ 'x-rova-api-key': 'rova_nope' }), 401, 401, 401],
  ];
  for (const [name, headers, read, write, self] of cases) {
    it(`${name}: admin read ${read}, admin write ${write}, self ${self}`, async () => {
      const r1 = await t.inject({ ...ADMIN_READ, headers: headers() });
      expect(r1.statusCode).toBe(read);
      const r2 = await t.inject({
        ...ADMIN_WRITE,
        payload: {
          ...ADMIN_WRITE.payload,
          login: 'n' + Math.random().toString(36).slice(2, 10),
          email: `n${Math.random().toString(36).slice(2)}@example.test`,
        },
        headers: headers(),
      });
      expect(r2.statusCode).toBe(write);
      const r3 = await t.inject({ ...SELF, headers: headers() });
      expect(r3.statusCode).toBe(self);
      if (read === 401) expect(r1.json()).toMatchObject({ code: 'rest_not_logged_in', data: { status: 401 } });
      if (read === 403) expect(r1.json()).toMatchObject({ code: 'rest_forbidden', data: { status: 403 } });
    });
  }

  it('revoked and expired keys say why', async () => {
    expect((await t.inject({ ...ADMIN_READ, headers: { 'x-rova-api-key': revokedKey } })).json().message).toMatch(
      /revoked/,
    );
    expect((await t.inject({ ...ADMIN_READ, headers: { 'x-rova-api-key': expiredKey } })).json().message).toMatch(
      /expired/,
    );
  });

  it('cookie without nonce is anonymous; with nonce (header, query, body) it counts', async () => {
    const s = await login('u_administrator');
    expect((await t.inject({ ...ADMIN_READ, cookies: { rova_session: s.cookie } })).statusCode).toBe(401);
    expect(
      (await t.inject({ ...ADMIN_READ, cookies: { rova_session: s.cookie }, headers: { 'x-wp-nonce': 'bad' } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.inject({ ...ADMIN_READ, cookies: { rova_session: s.cookie }, headers: { 'x-wp-nonce': s.nonce } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.inject({ ...ADMIN_READ, headers: { _wpnonce: s.nonce }, cookies: { rova_session: s.cookie } }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `/wp-json/rova/v1/users?_wpnonce=${s.nonce}`,
          cookies: { rova_session: s.cookie },
        })
      ).statusCode,
    ).toBe(200);
    const body = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/users',
      cookies: { rova_session: s.cookie },
      payload: { login: 'via_body', email: 'via_body@example.test', role: 'customer', _wpnonce: s.nonce },
    });
    expect(body.statusCode).toBe(201);
  });

  it('a nonce of another session does not work', async () => {
    const a = await login('u_administrator');
    const b = await login('u_shop_manager');
    expect(
      (await t.inject({ ...SELF, cookies: { rova_session: a.cookie }, headers: { 'x-wp-nonce': b.nonce } })).statusCode,
    ).toBe(401);
  });

  it('GET /auth/nonce refreshes the nonce; logout ends the session', async () => {
    const s = await login('u_shop_manager');
    const n = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/auth/nonce',
      cookies: { rova_session: s.cookie },
    });
    expect(n.statusCode).toBe(200);
    expect(n.headers['cache-control']).toBe('no-store');
    const nonce = n.json().nonce as string;
    expect(
      (await t.inject({ ...SELF, cookies: { rova_session: s.cookie }, headers: { 'x-wp-nonce': nonce } })).statusCode,
    ).toBe(200);
    const out = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/logout',
      cookies: { rova_session: s.cookie },
      headers: { 'x-wp-nonce': nonce },
    });
    expect(out.statusCode).toBe(200);
    expect(
      (await t.inject({ ...SELF, cookies: { rova_session: s.cookie }, headers: { 'x-wp-nonce': nonce } })).statusCode,
    ).toBe(401);
    expect(
      (await t.inject({ method: 'GET', url: '/wp-json/rova/v1/auth/nonce', cookies: { rova_session: s.cookie } }))
        .statusCode,
    ).toBe(401);
  });

  it('wrong password → 401; login is rate limited per account', async () => {
    await t.userWithKey('customer', ['read'], 'victim');
    const bad = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      payload: { login: 'victim', password: 'nope nope' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('rova_invalid_credentials');
    for (let i = 0; i < 9; i++)
      await t.inject({
        method: 'POST',
        url: '/wp-json/rova/v1/auth/login',
        payload: { login: 'victim', password: 'nope' },
      });
    const limited = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      payload: { login: 'victim', password: 'correct horse battery' },
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().code).toBe('rova_too_many_logins');
  });
});

describe('API keys', () => {
  it('create shows the key once, list never does, stored only as a keyed hash', async () => {
    const c = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/api-keys',
      headers: { 'x-rova-api-key': keys.administrator! },
      payload: { user: 'u_shop_manager', name: 'integration', scopes: ['read'] },
    });
    expect(c.statusCode).toBe(201);
    const { key, api_key } = c.json();
    expect(key).toMatch(/^rova_[A-Za-z0-9_-]{40,}$/);
    expect(api_key).toMatchObject({ name: 'integration', scopes: ['read'], status: 'active', revoked_at: null });
    const list = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/api-keys?per_page=100',
      headers: { 'x-rova-api-key': keys.administrator! },
    });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key);
    expect(list.headers['x-wp-total']).toBeDefined();
    const stored = await rows<{ key_hash: string }>(t.platform.db, sql`SELECT key_hash FROM rova_api_keys`);
    expect(stored.some((r) => r.key_hash.includes(key))).toBe(false);
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
    // the new key works for reads, then revoke → 401 at once
    expect((await t.inject({ ...SELF, headers: { 'x-rova-api-key': key } })).statusCode).toBe(200);
    const rv = await t.inject({
      method: 'DELETE',
      url: `/wp-json/rova/v1/api-keys/${api_key.id}`,
      headers: { 'x-rova-api-key': keys.administrator! },
    });
    expect(rv.statusCode).toBe(200);
    expect(rv.json().status).toBe('revoked');
    expect((await t.inject({ ...SELF, headers: { 'x-rova-api-key': key } })).statusCode).toBe(401);
  });
  it('bad input → 400/404, never 500', async () => {
    const h = { 'x-rova-api-key': keys.administrator! };
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/wp-json/rova/v1/api-keys',
          headers: h,
          payload: { user: 'nobody-here' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/wp-json/rova/v1/api-keys',
          headers: h,
          payload: { user_id: 1, scopes: ['admin'] },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await t.inject({ method: 'POST', url: '/wp-json/rova/v1/api-keys', headers: h, payload: {} })).statusCode,
    ).toBe(400);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/wp-json/rova/v1/api-keys',
          headers: h,
          payload: { user_id: 1, expires_at: '2001-01-01T00:00:00Z' },
        })
      ).statusCode,
    ).toBe(400);
    expect((await t.inject({ method: 'DELETE', url: '/wp-json/rova/v1/api-keys/999999', headers: h })).statusCode).toBe(
      404,
    );
    expect((await t.inject({ method: 'DELETE', url: '/wp-json/rova/v1/api-keys/abc', headers: h })).statusCode).toBe(
      400,
    );
  });
  it('last_used_at is recorded', async () => {
    const k = await t.userWithKey('customer');
    await t.inject({ ...SELF, headers: { 'x-rova-api-key': k.key } });
    await new Promise((r) => setTimeout(r, 100));
    const r = await rows<{ last_used_at: string | null }>(
      t.platform.db,
      sql`SELECT last_used_at FROM rova_api_keys WHERE id = ${k.keyId}`,
    );
    expect(r[0]?.last_used_at).not.toBeNull();
  });
});

describe('bootstrap admin key', () => {
  it('is idempotent and restores a revoked bootstrap key', async () => {
    const key = 'bootstrap-key-for-tests-0123456789';
    await t.platform.auth.ensureBootstrapAdmin(key);
    await t.platform.auth.ensureBootstrapAdmin(key);
    const r = await t.inject({ ...SELF, headers: { 'x-rova-api-key': key } });
    expect(r.statusCode).toBe(200);
    expect(r.json().user).toMatchObject({ login: 'admin', role: 'administrator' });
    const list = await t.platform.auth.listApiKeys(r.json().user.id, 1, 100);
    expect(list.items.filter((k) => k.name.startsWith('bootstrap'))).toHaveLength(1);
    await t.platform.auth.revokeApiKey(list.items[0]!.id);
    await t.platform.auth.ensureBootstrapAdmin(key);
    expect((await t.inject({ ...SELF, headers: { 'x-rova-api-key': key } })).statusCode).toBe(200);
  });
});
