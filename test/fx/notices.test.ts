import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, FX, type Admin } from './helpers.js';

let t: TestApp;
let a: Admin;
let b: Admin;
beforeAll(async () => {
  t = await makeApp();
  a = await adminOf(t);
  b = await adminOf(t, 'administrator');
});
afterAll(async () => t?.close());

describe('cache notices', () => {
  it('nothing recorded → empty list and 409 rova_fx_nothing_to_snooze', async () => {
    expect((await a.get('/cache-notice')).json()).toEqual({ notices: [] });
    for (const kind of ['anomaly', 'fragments']) {
      const r = await a.post(`/cache-notice/snooze-${kind}`);
      expect(r.statusCode).toBe(409);
      expect(r.json()).toEqual({
        code: 'rova_fx_nothing_to_snooze',
        message: 'There is nothing to snooze right now.',
        data: { status: 409 },
      });
    }
  });

  it('report → list; snooze is per user and per signature; a client signature is ignored', async () => {
    const rep = await a.post('/cache-notice/report', { kind: 'anomaly', path: '/urun-x/?utm_source=fb' });
    expect(rep.json()).toEqual({ success: true, kind: 'anomaly', signature: '/urun-x/' });
    expect((await a.get('/cache-notice')).json()).toEqual({
      notices: [{ kind: 'anomaly', signature: '/urun-x/', snoozed: false }],
    });
    const s = await t.inject({
      method: 'POST',
      url: `${FX}/cache-notice/snooze-anomaly?signature=/other/`,
      headers: { 'x-rova-api-key': a.key },
    });
    expect(s.json()).toEqual({ success: true, signature: '/urun-x/' });
    expect((await a.get('/cache-notice')).json().notices[0].snoozed).toBe(true);
    expect((await b.get('/cache-notice')).json().notices[0].snoozed).toBe(false);
    expect((await a.post('/cache-notice/snooze-fragments')).statusCode).toBe(409);
    await a.post('/cache-notice/report', { kind: 'anomaly', path: '/other/' });
    expect((await a.get('/cache-notice')).json().notices[0]).toEqual({
      kind: 'anomaly',
      signature: '/other/',
      snoozed: false,
    });
  });

  it('clearing an anomaly drops all snoozes of its kind', async () => {
    await a.post('/cache-notice/report', { kind: 'fragments', path: '/shop/' });
    await a.post('/cache-notice/snooze-fragments');
    await a.post('/cache-notice/snooze-anomaly');
    const clear = await a.post('/cache-notice/report', { kind: 'fragments', path: '' });
    expect(clear.json().signature).toBe('');
    await a.post('/cache-notice/report', { kind: 'fragments', path: '/shop/' });
    const list = (await a.get('/cache-notice')).json().notices;
    expect(list).toEqual([
      { kind: 'anomaly', signature: '/other/', snoozed: true },
      { kind: 'fragments', signature: '/shop/', snoozed: false },
    ]);
  });

  it('bad input → 400; permissions; a cookie session without nonce is anonymous', async () => {
    expect((await a.post('/cache-notice/report', { kind: 'other', path: '/' })).statusCode).toBe(400);
    expect((await a.post('/cache-notice/report', { kind: 'anomaly', path: 5 })).statusCode).toBe(400);
    expect((await t.inject({ method: 'POST', url: `${FX}/cache-notice/snooze-anomaly` })).statusCode).toBe(401);
    const c = await t.userWithKey('customer');
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${FX}/cache-notice/snooze-anomaly`,
          headers: { 'x-rova-api-key': c.key },
        })
      ).statusCode,
    ).toBe(403);
    await t.userWithKey('shop_manager', ['read'], 'mgr');
    const l = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      payload: { login: 'mgr', password: 'correct horse battery' },
    });
    const cookie = l.cookies.find((x) => x.name === 'rova_session')!;
    const noNonce = await t.inject({
      method: 'POST',
      url: `${FX}/cache-notice/snooze-anomaly`,
      cookies: { rova_session: cookie.value },
    });
    expect(noNonce.statusCode).toBe(401);
    const withNonce = await t.inject({
      method: 'POST',
      url: `${FX}/cache-notice/snooze-anomaly`,
      cookies: { rova_session: cookie.value },
      headers: { 'x-wp-nonce': l.json().nonce },
    });
    expect(withNonce.statusCode).toBe(200);
  });
});
