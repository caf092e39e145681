import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => t?.close());

describe('platform basics', () => {
  it('serves the REST index with namespaces', async () => {
    const r = await t.inject({ method: 'GET', url: '/wp-json/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-request-id']).toMatch(/.{8,}/);
    expect(r.json().namespaces).toContain('rova/v1');
  });
  it('unknown route → 404 rest_no_route in WP shape', async () => {
    const r = await t.inject({ method: 'GET', url: '/wp-json/nope/v1/x' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ code: 'rest_no_route', message: expect.any(String), data: { status: 404 } });
  });
  it('anonymous on admin route → 401, customer → 403, admin → 200', async () => {
    expect((await t.inject({ method: 'GET', url: '/wp-json/rova/v1/audit-log' })).statusCode).toBe(401);
    const c = await t.userWithKey('customer');
    expect(
      (await t.inject({ method: 'GET', url: '/wp-json/rova/v1/audit-log', headers: { 'x-rova-api-key': c.key } }))
        .statusCode,
    ).toBe(403);
    const a = await t.userWithKey('administrator');
    const r = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log',
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().length).toBeGreaterThan(0);
  });
  it('login → cookie + nonce; cookie alone is anonymous', async () => {
    await t.userWithKey('administrator', ['read'], 'boss');
    const l = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      payload: { login: 'boss', password: 'correct horse battery' },
    });
    expect(l.statusCode).toBe(200);
    const cookie = l.cookies.find((c) => c.name === 'rova_session')!;
    expect(cookie.httpOnly).toBe(true);
    const nonce = l.json().nonce as string;
    const without = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/auth/me',
      cookies: { rova_session: cookie.value },
    });
    expect(without.statusCode).toBe(401);
    const withNonce = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/auth/me',
      cookies: { rova_session: cookie.value },
      headers: { 'x-wp-nonce': nonce },
    });
    expect(withNonce.statusCode).toBe(200);
    expect(withNonce.json().user.login).toBe('boss');
  });
  it('malformed JSON → 400 rest_invalid_json', async () => {
    const r = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"login":',
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('rest_invalid_json');
  });
});
