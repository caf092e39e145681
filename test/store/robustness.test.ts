import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { expectWpError, fixtures, rawClient, snapshot as snap, type Method } from './hostile.js';

/**
 * Hostile input on every wc/v3 write route (and the read parameters that reach SQL): always a 4xx in the
 * WordPress error shape, never a 500, and a failed request never leaves a partial write behind.
 */

let t: TestApp;
let send: ReturnType<typeof rawClient>;
let simple = 0;
let variable = 0;
let variation = 0;
const snapshot = () => snap(t);

beforeAll(async () => {
  t = await makeApp();
  send = rawClient(t, (await t.userWithKey('administrator')).key);
  ({ simple, variable, variation } = await fixtures(send));
});
afterAll(async () => t?.close());

describe('text PostgreSQL cannot store, and ids beyond bigint', () => {
  it('NUL characters and lone surrogates anywhere in a body → 400 rest_invalid_param naming the field', async () => {
    const before = await snapshot();
    const cases: [Method, () => string, string, string][] = [
      ['POST', () => '/products', '{"name":"a\\u0000b"}', 'name'],
      ['POST', () => '/products', '{"sku":"x\\u0000"}', 'sku'],
      ['POST', () => '/products', '{"categories":[{"id":1,"name":"a\\ud800b"}]}', 'categories'],
      ['POST', () => '/products', '{"categories":[{"id":1,"name":"a\\u0000b"}]}', 'categories'],
      ['POST', () => '/products', '{"attributes":[{"name":"Size","options":["\\udc00"]}]}', 'attributes'],
      ['PUT', () => `/products/${simple}`, '{"description":"\\u0000"}', 'description'],
      ['PATCH', () => `/products/${simple}`, '{"short_description":"ok \\ud83d"}', 'short_description'],
      ['POST', () => `/products/${variable}/variations`, '{"attributes":[{"name":"\\u0000"}]}', 'attributes'],
      ['PUT', () => `/products/${variable}/variations/${variation}`, '{"sku":"\\u0000"}', 'sku'],
      ['POST', () => '/products/batch', '{"create":[{"name":"fine"},{"name":"\\u0000"}]}', 'create'],
      ['POST', () => '/products/batch', '{"update":[{"id":1,"images":[{"src":"\\ud800"}]}]}', 'update'],
    ];
    for (const [method, url, body, field] of cases) {
      const r = await send(method, url(), body);
      expectWpError(r, `${method} ${body}`);
      expect(r.statusCode, body).toBe(400);
      expect(r.json(), body).toMatchObject({
        code: 'rest_invalid_param',
        data: { params: { [field]: expect.any(String) } },
      });
    }
    // a key PostgreSQL's jsonb cannot hold is refused too
    const badKey = await send('POST', '/products', '{"rova_fixed_prices":{"EUR":"1","E\\u0000R":"2"}}');
    expect(badKey.statusCode).toBe(400);
    expect(badKey.json().code).toBe('rest_invalid_param');
    expect(await snapshot()).toEqual(before);
    // well-formed astral characters (surrogate pairs) are fine
    const emoji = await send('PATCH', `/products/${simple}`, '{"short_description":"ok \\ud83d\\ude97"}');
    expect(emoji.statusCode).toBe(200);
    expect(emoji.json().short_description).toBe('ok 🚗');
  });

  it('NUL in search or sku filters → 400, not a database error', async () => {
    for (const q of ['search=%00', 'sku=a%00b']) {
      const r = await send('GET', `/products?${q}`);
      expectWpError(r, q);
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('rest_invalid_param');
    }
  });

  it('ids and page numbers that are not exact integers (too big, "true", "1e300", "2abc") → 400 rest_invalid_param', async () => {
    const huge = '99999999999999999999';
    const before = await snapshot();
    const cases: [Method, string, string?][] = [
      ['GET', `/products/${huge}`],
      ['PUT', `/products/${huge}`, '{}'],
      ['DELETE', `/products/${huge}?force=true`],
      ['GET', `/products/${variable}/variations/${huge}`],
      ['PATCH', `/products/${variable}/variations/${huge}`, '{}'],
      ['GET', `/products/${huge}/variations`],
      ['GET', `/products?page=${huge}`],
      ['GET', '/products?page=1e300'],
      ['GET', '/products?per_page=2.5'],
      ['GET', '/products?page=2abc'],
      ['GET', `/products/${variable}/variations?page=${huge}`],
      ['POST', '/products/batch', `{"update":[{"id":${huge}}]}`],
      ['POST', '/products/batch', `{"delete":[${huge}]}`],
      ['POST', '/products', `{"categories":[{"id":${huge}}]}`],
      ['POST', '/products', '{"images":[{"id":1e300}]}'],
    ];
    for (const [method, url, body] of cases) {
      const r = await send(method, url, body);
      expectWpError(r, `${method} ${url} ${body ?? ''}`);
      expect(r.statusCode, `${method} ${url}`).toBe(400);
      expect(r.json().code, `${method} ${url}`).toBe('rest_invalid_param');
    }
    // text where an id belongs matches no route, as in WordPress (ids are [\d]+)
    for (const [method, url] of [
      ['GET', '/products/true'],
      ['DELETE', '/products/true?force=true'],
      ['DELETE', `/products/${simple}abc?force=true`],
    ] as const) {
      const r = await send(method, url);
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json().code, `${method} ${url}`).toBe('rest_no_route');
    }
    expect(await snapshot()).toEqual(before);
    // the largest exact id is merely unknown
    const max = await send('GET', `/products/${Number.MAX_SAFE_INTEGER}`);
    expect(max.statusCode).toBe(404);
    expect(max.json().code).toBe('woocommerce_rest_product_invalid_id');
    // a page far past the end is an empty page with the real totals
    const far = await send('GET', `/products?page=${Number.MAX_SAFE_INTEGER}`);
    expect(far.statusCode).toBe(200);
    expect(far.json()).toEqual([]);
    expect(far.headers['x-wp-total']).toBe('2');
  });

  it('bodies that are not JSON objects → 400 in the WP shape', async () => {
    const before = await snapshot();
    const bodies: [string, string, string][] = [
      ['null', 'application/json', 'rest_invalid_param'],
      ['"text"', 'application/json', 'rest_invalid_param'],
      ['12', 'application/json', 'rest_invalid_param'],
      ['[1,2]', 'application/json', 'rest_invalid_param'],
      ['{"name":', 'application/json', 'rest_invalid_json'],
      ['{"__proto__":{"x":1}}', 'application/json', 'rest_invalid_json'],
      ['{"constructor":{"prototype":{"x":1}}}', 'application/json', 'rest_invalid_json'],
      // An empty body is "no body" (WordPress semantics; WooCommerce DELETE clients send it): the object is missing.
      ['', 'application/json', 'rest_invalid_param'],
      ['['.repeat(20_000) + ']'.repeat(20_000), 'application/json', 'rest_invalid_param'],
    ];
    for (const [method, url] of [
      ['POST', '/products'],
      ['PUT', `/products/${simple}`],
      ['PATCH', `/products/${simple}`],
      ['POST', '/products/batch'],
      ['POST', `/products/${variable}/variations`],
      ['PUT', `/products/${variable}/variations/${variation}`],
    ] as [Method, string][]) {
      for (const [body, type, code] of bodies) {
        const r = await send(method, url, body, type);
        expectWpError(r, `${method} ${url} ${body.slice(0, 20)}`);
        expect(r.statusCode).toBe(400);
        expect(r.json().code, `${method} ${url} ${body.slice(0, 20)}`).toBe(code);
      }
    }
    const nullBody = await send('POST', '/products', 'null');
    expect(nullBody.json().data.params).toEqual({ body: 'body must be a JSON object' });
    expect(await snapshot()).toEqual(before);
  });

  it('oversized bodies on every write route → 413 in the WP shape, nothing written', async () => {
    const before = await snapshot();
    const big = JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024 + 10) });
    for (const [method, url] of [
      ['POST', '/products'],
      ['PATCH', `/products/${simple}`],
      ['POST', '/products/batch'],
      ['POST', `/products/${variable}/variations`],
      ['PUT', `/products/${variable}/variations/${variation}`],
    ] as [Method, string][]) {
      const r = await send(method, url, big);
      expectWpError(r, `${method} ${url}`);
      expect(r.statusCode, `${method} ${url}`).toBe(413);
    }
    expect(await snapshot()).toEqual(before);
  });
});
