import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/app.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { client, WC, type Client } from './helpers.js';

/**
 * Issue 2 "Done when": a new database with ROVA_BOOTSTRAP_ADMIN_KEY and the demo seed (what `npm start` runs on
 * first start) serves the demo catalogue at GET /wp-json/wc/v3/products with that key; an anonymous write is
 * 401 and a customer's key 403. Also checks that the seed covers every kind of product the issue lists.
 */

const BOOTSTRAP = 'demo-bootstrap-key-0123456789abcdef';
let t: TestApp;
let c: Client;

interface P {
  id: number;
  slug: string;
  type: string;
  status: string;
  password: string;
  price: string;
  sale_price: string;
  on_sale: boolean;
  date_on_sale_from_gmt: string | null;
  price_html: string;
  variations: number[];
}

beforeAll(async () => {
  t = await makeApp({ env: { ROVA_BOOTSTRAP_ADMIN_KEY: BOOTSTRAP } });
  await seedDemo(t.platform);
  c = client(t, BOOTSTRAP);
});
afterAll(async () => t?.close());

describe('fresh start with the demo seed and the bootstrap admin key', () => {
  it('GET /wp-json/wc/v3/products with the bootstrap key lists the demo products', async () => {
    const r = await c.get('/products');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toHaveLength(10);
    expect(r.headers['x-wp-total']).toBe('29'); // 30 products, one of them in the trash
    expect(r.headers['x-wp-totalpages']).toBe('3');
    expect(r.headers.link).toBe('<http://localhost:80/wp-json/wc/v3/products?page=2>; rel="next"');
  });

  it('anonymous write → 401, customer key → 403, in the WP shape', async () => {
    const anon = await t.inject({ method: 'POST', url: `${WC}/products`, payload: { name: 'Nope' } });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({
      code: 'woocommerce_rest_cannot_view',
      message: expect.any(String),
      data: { status: 401 },
    });
    const customer = client(t, (await t.userWithKey('customer')).key);
    const w = await customer.post('/products', { name: 'Nope' });
    expect(w.statusCode).toBe(403);
    expect(w.json()).toMatchObject({
      code: 'woocommerce_rest_cannot_view',
      message: expect.any(String),
      data: { status: 403 },
    });
    expect((await c.get('/products?search=Nope')).json()).toEqual([]);
  });

  it('the seed covers simple, on sale, scheduled sale, variable with 2–4 variations, a disabled variation, draft, private, trashed, password-protected', async () => {
    const r = await c.get('/products?per_page=100&status=any');
    const all = r.json() as P[];
    const trash = (await c.get('/products?status=trash')).json() as P[];
    expect(all.length + trash.length).toBe(30);
    const by = (slug: string) => [...all, ...trash].find((p) => p.slug === slug)!;
    const count = (f: (p: P) => boolean) => all.filter(f).length;
    expect(
      count((p) => p.type === 'simple' && p.status === 'publish' && p.password === '' && !p.on_sale && p.price !== ''),
    ).toBeGreaterThan(10);
    // on sale now, without and with a window
    expect(by('weekend-package')).toMatchObject({ on_sale: true, price: '169.00', date_on_sale_from_gmt: null });
    expect(by('camping-kit')).toMatchObject({ on_sale: true, price: '44.00' });
    // scheduled: a sale price with a window in the future → not on sale yet; an ended sale → not on sale
    const ski = by('ski-rack');
    expect(ski).toMatchObject({ on_sale: false, price: '22.00', sale_price: '17.60' });
    expect(new Date(ski.date_on_sale_from_gmt! + 'Z').getTime()).toBeGreaterThan(Date.now());
    expect(by('summer-road-trip')).toMatchObject({ on_sale: false, price: '349.00' });
    // statuses and password
    expect(by('electric-charging-card').status).toBe('draft');
    expect(by('vip-meet-greet').status).toBe('private');
    expect(by('winter-package-2027').status).toBe('pending');
    expect(by('old-cd-player').status).toBe('trash');
    expect(by('partner-fleet-rate')).toMatchObject({ status: 'publish', password: 'partners' });
    // variable products with 2, 3 and 4 variations; the disabled one is left out of the price range
    const sizes = all
      .filter((p) => p.type === 'variable' && p.status === 'publish')
      .map((p) => p.variations.length)
      .sort();
    expect(sizes).toEqual([2, 3, 4]);
    const mileage = by('mileage-package');
    const vars = (await c.get(`/products/${mileage.id}/variations?per_page=100&orderby=id&order=asc`)).json() as P[];
    expect(vars.map((v) => v.status)).toEqual(['publish', 'publish', 'publish', 'private']);
    expect(mileage.price).toBe('25.00');
    expect(mileage.price_html).toContain('25.00');
    expect(mileage.price_html).toContain('70.00');
    expect(mileage.price_html).not.toContain('99.00');
    expect(mileage.on_sale).toBe(true); // the 600 km variation is on sale
  });
});
