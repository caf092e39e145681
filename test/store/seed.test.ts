import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueView } from '../../src/modules/store/catalogue-view.js';
import { storeModule } from '../../src/modules/store/module.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, type Client } from './helpers.js';

let t: TestApp;
let c: Client;
beforeAll(async () => {
  t = await makeApp();
  c = client(t, (await t.userWithKey('administrator')).key);
});
afterAll(async () => t?.close());

describe('demo seed', () => {
  it('is idempotent and covers every kind of product', async () => {
    await storeModule.seedDemo!(t.platform);
    const first = await c.get('/products?per_page=100&status=any');
    await storeModule.seedDemo!(t.platform);
    const again = await c.get('/products?per_page=100&status=any');
    expect(again.headers['x-wp-total']).toBe(first.headers['x-wp-total']);
    expect(Number(first.headers['x-wp-total'])).toBeGreaterThanOrEqual(25);
    const all = first.json() as {
      slug: string;
      id: number;
      status: string;
      type: string;
      on_sale: boolean;
      password: string;
      rova_fixed_prices: Record<string, string>;
      variations: number[];
    }[];
    const by = (slug: string) => all.find((p) => p.slug === slug)!;
    expect(by('weekend-package').on_sale).toBe(true);
    expect(by('ski-rack').on_sale).toBe(false);
    expect(by('electric-charging-card').status).toBe('draft');
    expect(by('vip-meet-greet').status).toBe('private');
    expect(by('partner-fleet-rate').password).not.toBe('');
    expect(by('full-protection').rova_fixed_prices).toEqual({ EUR: '139.00' });
    expect(by('mileage-package').variations).toHaveLength(4);
    const trash = (await c.get('/products?status=trash')).json();
    expect(trash.map((p: { slug: string }) => p.slug)).toEqual(['old-cd-player']);
    const view = catalogueView(t.platform);
    await view.load();
    expect(view.priceHtml(by('phone-mount').id, null)).toContain('4.00');
    expect(view.priceHtml(by('phone-mount').id, null)).not.toContain('&ndash;');
    expect(view.priceHtml(by('vip-meet-greet').id, null)).toBeNull();
    expect(view.priceHtml(by('free-upgrade-voucher').id, null)).toBeNull();
  });
  it('documents every route in /openapi.json', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const paths = Object.keys(doc.paths).filter((p) => p.includes('/wc/v3/'));
    expect(paths.sort()).toEqual([
      '/wp-json/wc/v3/products',
      '/wp-json/wc/v3/products/attributes',
      '/wp-json/wc/v3/products/attributes/batch',
      '/wp-json/wc/v3/products/attributes/{attribute_id}/terms',
      '/wp-json/wc/v3/products/attributes/{attribute_id}/terms/batch',
      '/wp-json/wc/v3/products/attributes/{attribute_id}/terms/{id}',
      '/wp-json/wc/v3/products/attributes/{id}',
      '/wp-json/wc/v3/products/batch',
      '/wp-json/wc/v3/products/categories',
      '/wp-json/wc/v3/products/categories/batch',
      '/wp-json/wc/v3/products/categories/{id}',
      '/wp-json/wc/v3/products/tags',
      '/wp-json/wc/v3/products/tags/batch',
      '/wp-json/wc/v3/products/tags/{id}',
      '/wp-json/wc/v3/products/{id}',
      '/wp-json/wc/v3/products/{id}/variations',
      '/wp-json/wc/v3/products/{id}/variations/batch',
      '/wp-json/wc/v3/products/{id}/variations/{vid}',
    ]);
    expect(Object.keys(doc.paths['/wp-json/wc/v3/products/{id}']!).sort()).toEqual(['delete', 'get', 'patch', 'put']);
  });
});
