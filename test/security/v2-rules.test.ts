import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modules } from '../../src/modules/index.js';
import type { RovaModule } from '../../src/modules/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';

// A test-only v2 feature next to whatever v2 routes exist at merge time.
const probe: RovaModule = {
  name: 'v2-probe',
  routes: async (app) => {
    const ok = async () => ({ success: true, data: { ok: true }, message: '' });
    app.get('/rova-rental/v2/test-probe/:id', { config: { auth: { authenticated: true } } }, ok);
    app.put('/rova-rental/v2/test-probe/:id', { config: { auth: { authenticated: true } } }, ok);
    app.post('/rova-rental/v2/test-probe', { config: { auth: 'public', readOnly: true } }, ok);
  },
};

let t: TestApp;
let strictAll: TestApp;
beforeAll(async () => {
  t = await makeApp({ modules: [...modules, probe] });
  strictAll = await makeApp({ env: { ROVA_STRICT_METHODS: 'true' } });
  await t.platform.auth.createUser({
    login: 'browser_user',
    email: 'browser@example.test',
    role: 'customer',
    password: 'correct horse battery',
  });
}, 240_000);
afterAll(async () => {
  await t?.close();
  await strictAll?.close();
});

async function cookieLogin(): Promise<{ cookie: string; nonce: string }> {
  const r = await t.inject({
    method: 'POST',
    url: '/wp-json/rova/v1/auth/login',
    payload: { login: 'browser_user', password: 'correct horse battery' },
  });
  expect(r.statusCode).toBe(200);
  return { cookie: r.cookies.find((c) => c.name === 'rova_session')!.value, nonce: r.json().nonce };
}

describe('v2: nonce mandatory for cookie requests', () => {
  it('cookie without nonce → 403 NONCE_REQUIRED; bad nonce → 403 NONCE_INVALID; with nonce → 200', async () => {
    const { cookie, nonce } = await cookieLogin();
    const url = '/wp-json/rova-rental/v2/test-probe/1';
    const none = await t.inject({ method: 'GET', url, cookies: { rova_session: cookie } });
    expect(none.statusCode).toBe(403);
    expect(none.json()).toEqual({
      success: false,
      error_code: 'NONCE_REQUIRED',
      message: expect.stringContaining('X-WP-Nonce'),
    });
    const bad = await t.inject({
      method: 'GET',
      url,
      cookies: { rova_session: cookie },
      headers: { 'x-wp-nonce': 'deadbeefdeadbeefdead' },
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error_code).toBe('NONCE_INVALID');
    const good = await t.inject({
      method: 'GET',
      url,
      cookies: { rova_session: cookie },
      headers: { 'x-wp-nonce': nonce },
    });
    expect(good.statusCode).toBe(200);
    // public v2 routes too: a browser that sends its cookie must send the nonce
    const pub = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-rental/v2/test-probe',
      cookies: { rova_session: cookie },
      payload: {},
    });
    expect(pub.statusCode).toBe(403);
    expect(
      (await t.inject({ method: 'POST', url: '/wp-json/rova-rental/v2/test-probe', payload: {} })).statusCode,
    ).toBe(200);
  });

  it('v1 keeps WordPress semantics: a cookie without nonce is anonymous', async () => {
    const { cookie } = await cookieLogin();
    const r = await t.inject({
      method: 'GET',
      url: '/wp-json/rova-rental/v1/locations',
      cookies: { rova_session: cookie },
    });
    expect(r.statusCode).toBe(200);
    const admin = await t.inject({
      method: 'GET',
      url: '/wp-json/rova-rental/v1/dashboard/stats',
      cookies: { rova_session: cookie },
    });
    expect(admin.statusCode).toBe(401);
  });
});

describe('v2: strict method mode', () => {
  it('every v2 path × every method it does not serve → 405 with the right Allow (new v2 routes are covered automatically)', async () => {
    const idx = (await t.inject({ method: 'GET', url: '/wp-json/' })).json() as {
      routes: Record<string, { namespace: string; methods: string[] }>;
    };
    const v2 = Object.entries(idx.routes).filter(([, r]) => r.namespace === 'rova-rental/v2');
    expect(v2.length).toBeGreaterThanOrEqual(2);
    const key = (await t.userWithKey('administrator')).key;
    for (const [path, r] of v2) {
      const url = '/wp-json' + path.replace(/\{[^}]+\}/g, '1');
      const served = new Set(r.methods);
      for (const m of served)
        expect(['GET', 'POST', 'PUT'], `${m} ${path}: v2 serves only GET, POST, PUT`).toContain(m);
      const expected = ['GET', 'HEAD', 'POST', 'PUT', 'OPTIONS']
        .filter((m) => served.has(m) || (m === 'HEAD' && served.has('GET')) || m === 'OPTIONS')
        .join(', ');
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        if (served.has(m)) continue;
        const res = await t.inject({ method: m, url, headers: { 'x-rova-api-key': key } });
        expect(res.statusCode, `${m} ${path}`).toBe(405);
        expect(res.headers.allow, `${m} ${path}`).toBe(expected);
        expect(res.json(), `${m} ${path}`).toEqual({
          success: false,
          error_code: 'METHOD_NOT_ALLOWED',
          message: expect.any(String),
          details: { allow: expected.split(', ') },
        });
      }
      const opt = await t.inject({ method: 'OPTIONS', url });
      expect(opt.statusCode, `OPTIONS ${path}`).toBe(204);
      expect(opt.headers.allow).toBe(expected);
    }
  });

  it('a test route: Allow lists exactly what the path serves', async () => {
    const r = await t.inject({ method: 'DELETE', url: '/wp-json/rova-rental/v2/test-probe/5' });
    expect(r.statusCode).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD, PUT, OPTIONS');
    expect((await t.inject({ method: 'PATCH', url: '/wp-json/rova-rental/v2/test-probe' })).headers.allow).toBe(
      'POST, OPTIONS',
    );
  });

  it('unknown v2 paths stay 404; v1 is not strict by default', async () => {
    expect((await t.inject({ method: 'DELETE', url: '/wp-json/rova-rental/v2/no-such-thing' })).statusCode).toBe(404);
    const v1 = await t.inject({ method: 'PATCH', url: '/wp-json/rova-rental/v1/locations' });
    expect(v1.statusCode).toBe(404);
    expect(v1.headers.allow).toBeUndefined();
  });

  it('ROVA_STRICT_METHODS=true turns it on for every namespace (WordPress shape there)', async () => {
    const r = await strictAll.inject({ method: 'PATCH', url: '/wp-json/rova-rental/v1/locations' });
    expect(r.statusCode).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    const wc = await strictAll.inject({ method: 'PATCH', url: '/wp-json/rova/v1/auth/token' });
    expect(wc.statusCode).toBe(405);
    expect(wc.headers.allow).toBe('POST, OPTIONS');
    expect(wc.json()).toMatchObject({ code: 'rest_no_route', data: { status: 405 } });
  });
});
