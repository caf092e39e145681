import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let adminKey: string;

beforeAll(async () => {
  t = await makeApp({ demo: true });
  adminKey = (await t.userWithKey('administrator')).key;
}, 120_000);
afterAll(async () => t?.close());

describe('storefront assets', () => {
  it('serves the unhashed alias with a short cache and an ETag; 304 on If-None-Match', async () => {
    const r = await t.inject({ method: 'GET', url: '/assets/rova-fx/converter.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.headers['cache-control']).toBe('public, max-age=300');
    expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(r.body).toContain('rova-fx-price');
    const again = await t.inject({
      method: 'GET',
      url: '/assets/rova-fx/converter.js',
      headers: { 'if-none-match': String(r.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('public, max-age=300');
  });

  it('serves the content-hashed name as immutable, the same bytes as the alias', async () => {
    const page = await t.inject({ method: 'GET', url: '/demo/shop' });
    const src = /<script src="\/assets\/rova-fx\/(converter\.[A-Z0-9]+\.js)" defer>/.exec(page.body)?.[1];
    expect(src).toBeDefined();
    const hashed = await t.inject({ method: 'GET', url: `/assets/rova-fx/${src}` });
    const alias = await t.inject({ method: 'GET', url: '/assets/rova-fx/converter.js' });
    expect(hashed.statusCode).toBe(200);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.body).toBe(alias.body);
    expect(hashed.headers.etag).toBe(alias.headers.etag);
  });

  it('serves switcher.js, widget.js and both stylesheets; unknown names are 404', async () => {
    for (const [name, type] of [
      ['switcher.js', 'text/javascript; charset=utf-8'],
      ['widget.js', 'text/javascript; charset=utf-8'],
      ['switcher.css', 'text/css; charset=utf-8'],
      ['widget.css', 'text/css; charset=utf-8'],
    ] as const) {
      const r = await t.inject({ method: 'GET', url: `/assets/rova-fx/${name}` });
      expect(r.statusCode, name).toBe(200);
      expect(r.headers['content-type'], name).toBe(type);
    }
    expect((await t.inject({ method: 'GET', url: '/assets/rova-fx/nope.js' })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: '/assets/rova-fx/manifest.json' })).statusCode).toBe(404);
  });
});

describe('size budget', () => {
  it('converter.js is minified and at most 6 KB gzipped (level 6, what servers use)', async () => {
    const r = await t.inject({ method: 'GET', url: '/assets/rova-fx/converter.js' });
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.length).toBeGreaterThan(500);
    expect(r.body.trim().split('\n')).toHaveLength(1); // minified: one line
    expect(gzipSync(r.rawPayload, { level: 6 }).length).toBeLessThanOrEqual(6 * 1024);
  });

  it('book.js (the booking widget) is minified and at most 40 KB gzipped (issue 36 budget)', async () => {
    const r = await t.inject({ method: 'GET', url: '/assets/rova-book/book.js' });
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.length).toBeGreaterThan(10_000);
    expect(gzipSync(r.rawPayload, { level: 6 }).length).toBeLessThanOrEqual(40 * 1024);
  });
});

describe('config object', () => {
  it('config.json: base first, then the enabled usable currencies in order, the server cap as batch size', async () => {
    const r = await t.inject({ method: 'GET', url: '/assets/rova-fx/config.json' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['cache-control']).toBe('public, max-age=60, s-maxage=60');
    expect(r.json()).toEqual({
      endpoint: '/wp-json/rova-fx/v1/convert',
      base: 'USD',
      currencies: [
        { code: 'USD', symbol: '$', name: 'US Dollar', flag: '🇺🇸' },
        { code: 'EUR', symbol: '€', name: 'Euro', flag: '🇪🇺' },
        { code: 'GBP', symbol: '£', name: 'British Pound', flag: '🇬🇧' },
        { code: 'JPY', symbol: '¥', name: 'Japanese Yen', flag: '🇯🇵' },
        { code: 'TRY', symbol: '₺', name: 'Turkish Lira', flag: '🇹🇷' },
      ],
      batchSize: 50,
      autoDetect: false,
      cookie: { name: 'rova_fx_currency', days: 30 },
      urlParam: 'currency',
      switcher: { show_flag: true, show_name: false, show_symbol: true, show_code: true, size: 'medium' },
      widget: { enabled: false, show_flags: true, currencies: [] },
    });
  });

  it('follows the settings: auto_detect, switcher labels, widget (base and unknown codes dropped), disabled currency left out', async () => {
    const h = { 'x-rova-api-key': adminKey, 'content-type': 'application/json' };
    const s = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-fx/v1/settings',
      headers: h,
      payload: {
        auto_detect: true,
        switcher: { show_flag: false, show_name: true, show_symbol: false, show_code: true, size: 'large' },
        product_widget: { enabled: true, show_flags: false, currencies: ['GBP', 'USD', 'EUR', 'CHF'] },
      },
    });
    expect(s.statusCode).toBe(200);
    const cur = (await t.inject({ method: 'GET', url: '/wp-json/rova-fx/v1/currencies', headers: h })).json() as {
      currencies: { code: string; enabled: boolean }[];
    };
    const rows = cur.currencies.map((c) => (c.code === 'JPY' ? { ...c, enabled: false } : c));
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/wp-json/rova-fx/v1/currencies',
          headers: h,
          payload: { currencies: rows },
        })
      ).statusCode,
    ).toBe(200);

    const r = await t.inject({ method: 'GET', url: '/assets/rova-fx/config.js' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const m = /^window\.rovaFx=Object\.assign\((.*),window\.rovaFx\|\|\{\}\);\n$/s.exec(r.body);
    expect(m).not.toBeNull();
    const cfg = JSON.parse(m![1]!) as Record<string, unknown> & { currencies: { code: string }[] };
    expect(cfg.currencies.map((c) => c.code)).toEqual(['USD', 'EUR', 'GBP', 'TRY']);
    expect(cfg.autoDetect).toBe(true);
    expect(cfg.switcher).toEqual({
      show_flag: false,
      show_name: true,
      show_symbol: false,
      show_code: true,
      size: 'large',
    });
    expect(cfg.widget).toEqual({ enabled: true, show_flags: false, currencies: ['GBP', 'EUR'] });

    // Restore for the other tests.
    await t.inject({
      method: 'POST',
      url: '/wp-json/rova-fx/v1/currencies',
      headers: h,
      payload: { currencies: cur.currencies },
    });
    await t.inject({
      method: 'POST',
      url: '/wp-json/rova-fx/v1/settings',
      headers: h,
      payload: {
        auto_detect: false,
        switcher: { show_flag: true, show_name: false, show_symbol: true, show_code: true, size: 'medium' },
        product_widget: { enabled: false },
      },
    });
  });
});

describe('demo shop', () => {
  it('is a public, shared-cacheable page in the base currency with markers; same bytes for every visitor', async () => {
    const a = await t.inject({ method: 'GET', url: '/demo/shop' });
    const b = await t.inject({
      method: 'GET',
      url: '/demo/shop?currency=EUR',
      headers: { cookie: 'rova_fx_currency=EUR', 'cf-ipcountry': 'DE' },
    });
    for (const r of [a, b]) {
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
      expect(r.headers['set-cookie']).toBeUndefined();
      expect(r.headers.vary).toBeUndefined();
    }
    expect(b.body).toBe(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(a.body).toContain(
      '<span class="rova-fx-price" data-rova-fx-product="1"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>12.00</bdi></span></span>',
    );
    expect(a.body).toContain('<div data-rova-fx-switcher aria-label="Currency"></div>');
    const inline = /<script type="application\/json" id="rova-fx-config">(.*?)<\/script>/.exec(a.body)?.[1];
    expect(inline).toBe((await t.inject({ method: 'GET', url: '/assets/rova-fx/config.json' })).body);
    expect(a.body.split('<main>')[1]).not.toMatch(/[€£¥₺]/);
    // Only public products: drafts, private, password-protected and trashed ones are not listed.
    expect(a.body).not.toContain('Partner fleet rate');
    expect(a.body).not.toContain('EV charging card');
    const notModified = await t.inject({
      method: 'GET',
      url: '/demo/shop',
      headers: { 'if-none-match': String(a.headers.etag) },
    });
    expect(notModified.statusCode).toBe(304);
  });

  it('follows catalogue writes: a new price shows on the next request (new ETag)', async () => {
    const before = await t.inject({ method: 'GET', url: '/demo/shop' });
    const h = { 'x-rova-api-key': adminKey, 'content-type': 'application/json' };
    const put = await t.inject({
      method: 'PUT',
      url: '/wp-json/wc/v3/products/1',
      headers: h,
      payload: { regular_price: '13.50' },
    });
    expect(put.statusCode).toBe(200);
    const after = await t.inject({ method: 'GET', url: '/demo/shop' });
    expect(after.body).toContain(
      '<span class="rova-fx-price" data-rova-fx-product="1"><span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">$</span>13.50</bdi></span></span>',
    );
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const back = await t.inject({
      method: 'PUT',
      url: '/wp-json/wc/v3/products/1',
      headers: h,
      payload: { regular_price: '12.00' },
    });
    expect(back.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/demo/shop' })).body).toBe(before.body);
  });

  it('product page by slug and by id: price marker, variation markers, widget element; unknown or hidden → 404', async () => {
    const bySlug = await t.inject({ method: 'GET', url: '/demo/shop/mileage-package' });
    expect(bySlug.statusCode).toBe(200);
    expect(bySlug.headers['cache-control']).toBe('public, max-age=60, s-maxage=300');
    const id = /<div class="price"><span class="rova-fx-price" data-rova-fx-product="(\d+)">/.exec(bySlug.body)?.[1];
    expect(id).toBeDefined();
    expect(bySlug.body).toContain(
      `<div class="rova-fx-widget" data-rova-fx-widget data-rova-fx-product="${id}"></div>`,
    );
    expect(bySlug.body.match(/class="rova-fx-price"/g)).toHaveLength(4); // the range + 3 public variations (Unlimited is disabled)
    const byId = await t.inject({ method: 'GET', url: `/demo/shop/${id}` });
    expect(byId.statusCode).toBe(200);
    expect(byId.body).toBe(bySlug.body);
    expect((await t.inject({ method: 'GET', url: '/demo/shop/no-such-product' })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: '/demo/shop/partner-fleet-rate' })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: '/demo/shop/electric-charging-card' })).statusCode).toBe(404);
  });
});
