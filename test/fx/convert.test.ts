import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import maxmind from 'maxmind';
import { geoDbPath } from '../../src/modules/fx/geo.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, FX, product, row, variation, type Admin } from './helpers.js';

let t: TestApp;
let a: Admin;
const id = {
  p100: 0,
  p55: 0,
  sale: 0,
  fixed: 0,
  big: 0,
  noPrice: 0,
  draft: 0,
  private: 0,
  pending: 0,
  password: 0,
  trash: 0,
  variable: 0,
  v50: 0,
  v100: 0,
  v15: 0,
  draftParent: 0,
  vOfDraft: 0,
  pwParent: 0,
  vOfPw: 0,
};

const convert = (payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.inject({
    method: 'POST',
    url: `${FX}/convert`,
    payload: payload as Record<string, unknown>,
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });

const CURX = { symbol: 'CURX', decimals: 2, decimal_sep: '.', thousand_sep: ',', position: 'left' };

beforeAll(async () => {
  // A high limit: these tests are about conversion; limiter.test.ts covers the limiter.
  t = await makeApp({ env: { FX_CONVERT_RATE_LIMIT: '100000' } });
  a = await adminOf(t, 'administrator');
  const k = a.key;
  id.p100 = await product(t, k, { name: 'Hundred', regular_price: '100.00' });
  id.p55 = await product(t, k, { name: 'Fifty-five', regular_price: '55' });
  id.sale = await product(t, k, { name: 'On sale', regular_price: '100', sale_price: '80' });
  id.fixed = await product(t, k, { name: 'Fixed', regular_price: '100', rova_fixed_prices: { EUR: '149.99' } });
  id.big = await product(t, k, { name: 'Big', regular_price: '1234.5' });
  id.noPrice = await product(t, k, { name: 'No price', regular_price: '' });
  id.draft = await product(t, k, { name: 'Draft', regular_price: '77', status: 'draft' });
  id.private = await product(t, k, { name: 'Private', regular_price: '77', status: 'private' });
  id.pending = await product(t, k, { name: 'Pending', regular_price: '77', status: 'pending' });
  id.password = await product(t, k, { name: 'Password', regular_price: '77', password: 'secret' });
  id.trash = await product(t, k, { name: 'Trash', regular_price: '77', status: 'trash' });
  id.variable = await product(t, k, { name: 'Variable', type: 'variable' });
  id.v50 = await variation(t, k, id.variable, { regular_price: '50' });
  id.v100 = await variation(t, k, id.variable, { regular_price: '100' });
  id.v15 = await variation(t, k, id.variable, { regular_price: '15', status: 'private' });
  id.draftParent = await product(t, k, { name: 'Draft parent', type: 'variable', status: 'draft' });
  id.vOfDraft = await variation(t, k, id.draftParent, { regular_price: '33' });
  id.pwParent = await product(t, k, { name: 'Password parent', type: 'variable', password: 'x' });
  id.vOfPw = await variation(t, k, id.pwParent, { regular_price: '34' });
  const r = await a.post('/currencies', {
    currencies: [
      row('EUR', 2, { format: CURX }),
      row('JPY', 150.456),
      row('KWD', 0.30712),
      row('GBP', 0.8, { enabled: false }),
      row('CHF', 0),
      row('TRY', 30, {
        rounding: { type: 'nearest', value: 1, subtract: 0.01 },
        format: { position: 'right_space', decimal_sep: ',', thousand_sep: '.' },
      }),
    ],
  });
  expect(r.statusCode).toBe(200);
});
afterAll(async () => t?.close());

describe('POST /convert: shape and prices', () => {
  it('converts into an offered currency; exact keys, no-store, anonymous', async () => {
    const r = await convert({ currency: 'EUR', product_ids: [id.p100, id.p55] });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    const body = r.json();
    expect(Object.keys(body)).toEqual(['currency', 'detected', 'prices']);
    expect(body.currency).toBe('EUR');
    expect(body.detected).toBe(false);
    expect(body.prices).toEqual({
      [id.p100]:
        '<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">CURX</span>200.00</bdi></span>',
      [id.p55]:
        '<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">CURX</span>110.00</bdi></span>',
    });
    expect(r.body).not.toContain('rova-fx-price');
  });

  it('prices keep the first-occurrence order of the request', async () => {
    const r = await convert({ currency: 'EUR', product_ids: [id.p55, id.p100] });
    expect(r.body.indexOf(`"${id.p55}"`)).toBeLessThan(r.body.indexOf(`"${id.p100}"`));
  });

  it('sale, variable range, variation, fixed price', async () => {
    const r = await convert({ currency: 'EUR', product_ids: [id.sale, id.variable, id.v50, id.fixed] });
    const p = r.json().prices;
    expect(p[id.sale]).toContain('<del aria-hidden="true">');
    expect(p[id.sale]).toContain('CURX</span>200.00');
    expect(p[id.sale]).toContain('<ins aria-hidden="true">');
    expect(p[id.sale]).toContain('CURX</span>160.00');
    expect(p[id.sale]).toContain('Original price was: CURX200.00.');
    expect(p[id.variable]).toBe(
      '<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">CURX</span>100.00</bdi></span> &ndash; <span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">CURX</span>200.00</bdi></span>',
    );
    expect(p[id.v50]).toContain('CURX</span>100.00');
    expect(p[id.fixed]).toContain('CURX</span>149.99');
    expect(r.body).not.toContain('200.00</bdi></span></ins>');
  });

  it('JPY has 0 decimals, KWD 3; TRY rounding and separators', async () => {
    const jpy = (await convert({ currency: 'JPY', product_ids: [id.big, id.sale] })).json();
    expect(jpy.prices[id.big]).toContain('¥</span>185,738'); // 1234.5 × 150.456 = 185737.932
    expect(jpy.prices[id.sale]).toContain('¥</span>12,036'); // 80 × 150.456 = 12036.48
    const kwd = (await convert({ currency: 'KWD', product_ids: [id.big] })).json();
    expect(kwd.prices[id.big]).toContain('KWD</span>379.140'); // 1234.5 × 0.30712 = 379.13964
    const tr = (await convert({ currency: 'TRY', product_ids: [id.big] })).json();
    expect(tr.prices[id.big]).toContain('37.034,99&nbsp;<span class="woocommerce-Price-currencySymbol">₺</span>'); // 37035 − 0.01
  });

  it('empty and all-hidden requests → prices {}', async () => {
    const r = await convert({ currency: 'EUR', product_ids: [] });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('{"currency":"EUR","detected":false,"prices":{}}');
    expect((await convert({ product_ids: [999999] })).json().prices).toEqual({});
  });

  it('hidden products of every kind are omitted silently, and their amounts appear nowhere', async () => {
    const hidden = [
      id.draft,
      id.private,
      id.pending,
      id.password,
      id.trash,
      id.v15,
      id.vOfDraft,
      id.vOfPw,
      id.noPrice,
      987654,
    ];
    const r = await convert({ currency: 'EUR', product_ids: [id.p100, ...hidden, id.v100] });
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.json().prices)).toEqual([String(id.p100), String(id.v100)]);
    expect(r.body).not.toContain('154.00'); // 77 × 2
    expect(r.body).not.toContain('30.00'); // 15 × 2
    expect(r.body).not.toContain('66.00');
  });
});

describe('POST /convert: input rules', () => {
  it('50 ids pass, 51 (even duplicates) → 400 rova_fx_too_many_products, no prices key', async () => {
    const fifty = [id.p100, ...Array.from({ length: 49 }, (_, i) => 500000 + i)];
    const ok = await convert({ currency: 'EUR', product_ids: fifty });
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.json().prices)).toEqual([String(id.p100)]);
    const r = await convert({ currency: 'EUR', product_ids: Array.from({ length: 51 }, () => id.p100) });
    expect(r.statusCode).toBe(400);
    const body = r.json();
    expect(body.code).toBe('rest_invalid_param');
    expect(body.data.status).toBe(400);
    expect(body.data.params.product_ids).toMatch(/Too many product IDs/);
    expect(body.data.details.product_ids.code).toBe('rova_fx_too_many_products');
    expect(body).not.toHaveProperty('prices');
    expect((await convert({ product_ids: Array.from({ length: 5000 }, (_, i) => i + 1) })).statusCode).toBe(400);
  });

  it('missing or null product_ids → 400 rest_missing_callback_param', async () => {
    for (const payload of [{ currency: 'EUR' }, { currency: 'EUR', product_ids: null }]) {
      const r = await convert(payload);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): product_ids',
        data: { status: 400, params: ['product_ids'] },
      });
    }
  });

  it('non-array product_ids and non-string currency → 400 rest_invalid_param', async () => {
    for (const payload of [{ product_ids: '42' }, { product_ids: 42 }, { product_ids: { a: 1 } }]) {
      const r = await convert(payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      expect(r.json().code).toBe('rest_invalid_param');
      expect(r.json().data.params).toHaveProperty('product_ids');
    }
    for (const currency of [12, true, ['EUR'], { c: 'EUR' }]) {
      const r = await convert({ currency, product_ids: [id.p100] });
      expect(r.statusCode, JSON.stringify(currency)).toBe(400);
      expect(r.json().code).toBe('rest_invalid_param');
      expect(r.json().data.params).toHaveProperty('currency');
    }
  });

  it('junk ids dropped silently, numeric strings accepted, duplicates collapse', async () => {
    const r = await convert({
      currency: 'EUR',
      product_ids: [id.p55, 'abc', '', null, -5, 0, [1], 42.5, { x: 1 }, true, String(id.p100), id.p55, id.p55],
    });
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.json().prices).sort()).toEqual([String(id.p55), String(id.p100)].sort());
    // JSON objects keep the order they were written in; JSON.parse would re-sort integer keys, so read the text.
    expect(r.body.indexOf(`"${id.p55}":`)).toBeLessThan(r.body.indexOf(`"${id.p100}":`));
    const same = await convert({ currency: 'EUR', product_ids: Array.from({ length: 40 }, () => id.p100) });
    expect(Object.keys(same.json().prices)).toHaveLength(1);
  });

  it('lowercase and padded codes are normalised', async () => {
    const r = await convert({ currency: ' eur ', product_ids: [id.p100] });
    expect(r.json().currency).toBe('EUR');
    expect(r.json().prices[id.p100]).toContain('200.00');
  });

  it('unknown, disabled, rate-0, malformed and base codes → base currency, detected false', async () => {
    for (const c of ['ZWL', 'GBP', 'CHF', '€€€€', 'EURO', 'USD', 'usd']) {
      const r = await convert({ currency: c, product_ids: [id.p100] });
      expect(r.statusCode).toBe(200);
      expect(r.json(), c).toEqual({
        currency: 'USD',
        detected: false,
        prices: {
          [id.p100]:
            '<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>100.00</bdi></span>',
        },
      });
    }
  });

  it('a body that is not JSON object → 400, no 500', async () => {
    const r = await t.inject({
      method: 'POST',
      url: `${FX}/convert`,
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(r.statusCode).toBe(400);
    const bad = await t.inject({
      method: 'POST',
      url: `${FX}/convert`,
      headers: { 'content-type': 'application/json' },
      payload: '{"product_ids":',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('writes nothing: no cookie, no change to currencies or settings, no audit row', async () => {
    const before = (await a.get('/currencies')).json();
    const r = await convert(
      { currency: null, product_ids: [id.p100] },
      { cookie: 'rova_fx_currency=EUR', 'x-request-id': 'fx-convert-probe-1' },
    );
    expect(r.headers['set-cookie']).toBeUndefined();
    expect((await a.get('/currencies')).json()).toEqual(before);
    const log = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?route=convert',
      headers: { 'x-rova-api-key': a.key },
    });
    expect(log.statusCode).toBe(200);
    expect(log.json().map((e: { request_id: string }) => e.request_id)).not.toContain('fx-convert-probe-1');
  });
});

describe('POST /convert: detection', () => {
  let knownIp = '';
  beforeAll(async () => {
    // Find an address the shipped DB-IP file places in Germany (checked with the same reader).
    const reader = await maxmind.open(geoDbPath({})!);
    for (const ip of ['2.160.0.1', '5.1.1.1', '46.114.0.1', '80.128.0.1', '91.0.0.1', '217.0.0.1', '84.128.0.1']) {
      if ((reader.get(ip) as { country_code?: string } | null)?.country_code === 'DE') {
        knownIp = ip;
        break;
      }
    }
    expect(knownIp).not.toBe('');
  });

  it('auto_detect off: no geolocation; null/omitted/"" → base, detected false', async () => {
    for (const payload of [
      { product_ids: [id.p100] },
      { currency: null, product_ids: [id.p100] },
      { currency: '', product_ids: [id.p100] },
    ]) {
      const r = await convert(payload, { 'cf-ipcountry': 'DE' }, knownIp);
      expect(r.json().currency).toBe('USD');
      expect(r.json().detected).toBe(false);
    }
  });

  it('a valid offered cookie is detection (step 1), also with auto_detect off; invalid cookie is ignored', async () => {
    const r = await convert({ currency: null, product_ids: [id.p100] }, { cookie: 'rova_fx_currency=EUR' });
    expect(r.json()).toMatchObject({ currency: 'EUR', detected: true });
    const bad = await convert({ product_ids: [id.p100] }, { cookie: 'rova_fx_currency=GBP' });
    expect(bad.json()).toMatchObject({ currency: 'USD', detected: false });
    const explicit = await convert({ currency: 'JPY', product_ids: [id.p100] }, { cookie: 'rova_fx_currency=EUR' });
    expect(explicit.json()).toMatchObject({ currency: 'JPY', detected: false });
  });

  describe('with auto_detect on', () => {
    beforeAll(async () => {
      expect((await a.post('/settings', { auto_detect: true })).json().settings.auto_detect).toBe(true);
    });
    afterAll(async () => {
      await a.post('/settings', { auto_detect: false });
    });

    it('CDN header DE → EUR, detected true, no cookie written', async () => {
      for (const payload of [{ currency: null, product_ids: [id.p100] }, { product_ids: [id.p100] }]) {
        const r = await convert(payload, { 'cf-ipcountry': 'de' });
        expect(r.json()).toMatchObject({ currency: 'EUR', detected: true });
        expect(r.json().prices[id.p100]).toContain('200.00');
        expect(r.headers['set-cookie']).toBeUndefined();
      }
    });

    it('explicit currency → detected false and no geolocation', async () => {
      expect((await convert({ currency: 'JPY', product_ids: [] }, { 'cf-ipcountry': 'DE' })).json()).toMatchObject({
        currency: 'JPY',
        detected: false,
      });
      expect((await convert({ currency: '€€€€', product_ids: [] }, { 'cf-ipcountry': 'DE' })).json()).toMatchObject({
        currency: 'USD',
        detected: false,
      });
    });

    it('header XX / T1 / junk fall through to the MMDB, which finds the socket address', async () => {
      for (const h of ['XX', 'T1', 'nope']) {
        const r = await convert({ product_ids: [] }, { 'cf-ipcountry': h }, knownIp);
        expect(r.json(), h).toMatchObject({ currency: 'EUR', detected: true });
      }
      const local = await convert({ product_ids: [] }, { 'cf-ipcountry': 'XX' }, '127.0.0.1');
      expect(local.json()).toMatchObject({ currency: 'USD', detected: false });
    });

    it('country maps to a currency not offered → base, detected false; the cookie wins over geolocation', async () => {
      const gb = await convert({ product_ids: [] }, { 'cf-ipcountry': 'GB' });
      expect(gb.json()).toMatchObject({ currency: 'USD', detected: false });
      const ch = await convert({ product_ids: [] }, { 'cf-ipcountry': 'CH' });
      expect(ch.json()).toMatchObject({ currency: 'USD', detected: false });
      const both = await convert({ product_ids: [] }, { 'cf-ipcountry': 'GB', cookie: 'rova_fx_currency=JPY' });
      expect(both.json()).toMatchObject({ currency: 'JPY', detected: true });
    });

    it('a country of the base currency is a detection', async () => {
      expect((await convert({ product_ids: [] }, { 'cf-ipcountry': 'US' })).json()).toMatchObject({
        currency: 'USD',
        detected: true,
      });
    });

    it('crawlers skip geolocation', async () => {
      const r = await convert(
        { product_ids: [] },
        {
          'cf-ipcountry': 'DE',
          'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        },
        knownIp,
      );
      expect(r.json()).toMatchObject({ currency: 'USD', detected: false });
    });

    it('forwarded addresses count only from trusted proxies', async () => {
      // No TRUST_PROXY: X-Forwarded-For is ignored, the socket address (local) is used.
      const r = await convert({ product_ids: [] }, { 'x-forwarded-for': knownIp }, '127.0.0.1');
      expect(r.json()).toMatchObject({ currency: 'USD', detected: false });
    });
  });
});

describe('detection through a trusted proxy on a real socket', () => {
  let p: TestApp;
  let url = '';
  beforeAll(async () => {
    p = await makeApp({ env: { TRUST_PROXY: '127.0.0.1', FX_GEO_HEADERS: '' } });
    const adm = await adminOf(p, 'administrator');
    await adm.post('/currencies', { currencies: [row('EUR', 2)] });
    await adm.post('/settings', { auto_detect: true });
    await p.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(p.app.server.address() as { port: number }).port}${FX}/convert`;
  });
  afterAll(async () => p?.close());

  it('X-Forwarded-For from 127.0.0.1 is geolocated with the local database; CDN headers are off', async () => {
    const reader = await maxmind.open(geoDbPath({})!);
    const de = ['2.160.0.1', '5.1.1.1', '46.114.0.1', '80.128.0.1', '91.0.0.1', '217.0.0.1', '84.128.0.1'].find(
      (ip) => (reader.get(ip) as { country_code?: string } | null)?.country_code === 'DE',
    )!;
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ product_ids: [] }),
      }).then((r) => r.json());
    expect(await post({ 'x-forwarded-for': de })).toEqual({ currency: 'EUR', detected: true, prices: {} });
    expect(await post({ 'x-forwarded-for': '8.8.8.8' })).toEqual({ currency: 'USD', detected: true, prices: {} }); // US → the base
    expect(await post({ 'x-forwarded-for': '1.1.1.1' })).toEqual({ currency: 'USD', detected: false, prices: {} }); // AU → AUD, not offered
    expect(await post({ 'x-forwarded-for': 'not-an-ip' })).toEqual({ currency: 'USD', detected: false, prices: {} });
    expect(await post({ 'cf-ipcountry': 'DE' })).toEqual({ currency: 'USD', detected: false, prices: {} });
  });
});
