import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 19 item 1: a write schema names every accepted field (`additionalProperties: false`).
 *
 * 1. The whole API, from /openapi.json: every object schema in every request body — every content type (JSON,
 *    form-urlencoded, multipart), at any depth (through $ref, allOf/anyOf/oneOf, items, properties and map
 *    values) — is closed, except the EXCEPTIONS below, each with its reason. A stale exception fails too.
 * 2. Every write route (POST/PUT/PATCH/DELETE with a JSON body) answers one unknown property with a 400 in its
 *    namespace's error shape naming the property, as an administrator (validation runs after the permission
 *    check and before the handler, so path ids need not exist: a 400 comes before any 404).
 *
 * wc/v3 decision: WooCommerce ignores what it cannot write and its clients (@woocommerce/woocommerce-rest-api
 * and the like) send back the whole object they read. So the wc/v3 write schemas are closed too, but name every
 * read-only field of the response (`id`, `permalink`, `date_created`, `price`, `price_html`, `count`, …) and
 * WordPress' `_links` as accepted-and-ignored (`readOnly: true`): a GET → PUT round trip keeps working (tested
 * below) while a misspelt or unsupported field (`regular_prize`, `meta_data`) is a 400 instead of silence.
 *
 * `_wpnonce` may travel in the body where a cookie session can authenticate (ARCHITECTURE.md): every body of an
 * authenticated route names it (added in one place, src/platform/http/nonce-body.ts) and it is dropped before the
 * handler runs.
 */

interface Exception {
  /** `METHOD /path` of the operations it covers */
  op: RegExp;
  /** where in the body (`body`, `body.create[].rova_fixed_prices`, …) */
  at: RegExp;
  why: string;
}

const EXCEPTIONS: Exception[] = [
  {
    op: /^POST \/wp-json\/rova-rental\/v2\/payments\/stripe\/webhook$/,
    at: /^body$/,
    why: "a Stripe event: Stripe's own schema, signed by Stripe (verified first) and extended by Stripe without notice; the handler reads id, type and data.object only",
  },
  {
    op: /^(POST|PUT|PATCH) \/wp-json\/wc\/v3\/products(\/batch|\/\{id\}|\/\{id\}\/variations(\/batch|\/\{vid\})?)?$/,
    at: /^body(\.(create|update)\[\])?\.rova_fixed_prices$/,
    why: 'a map currency → price: keys are checked by pattern ^[A-Z]{3}$ (patternProperties, closed at runtime; the document shows the value schema as additionalProperties)',
  },
  {
    op: /^PUT \/wp-json\/rova\/v1\/api-keys\/\{id\}\/plan$/,
    at: /^body\.route_costs$/,
    why: 'a map "METHOD /route" → cost: keys are checked by pattern (patternProperties, closed at runtime; the document shows the value schema as additionalProperties)',
  },
  {
    op: /^PUT \/wp-json\/rova-rental\/v2\/driver-settings$/,
    at: /^body\.min_age_by_category$/,
    why: 'a map vehicle category → minimum driver age: keys are checked by pattern ^[a-z0-9][a-z0-9_-]{0,49}$ (patternProperties, closed at runtime)',
  },
];

type Json = Record<string, unknown>;
interface Op {
  requestBody?: {
    content?: Record<
      string,
      { schema?: Json; example?: unknown; examples?: Record<string, { value?: unknown }> | unknown[] }
    >;
  };
}
interface Doc {
  paths: Record<string, Record<string, Op>>;
  components?: Json;
}

const WRITE = ['post', 'put', 'patch', 'delete'];
const UNKNOWN = '__unknown_field';
const PAYOUT_SECRET = 'whsec_' + Buffer.from('write-schemas-payout-secret-0123456789').toString('base64');

let t: TestApp;
let doc: Doc;
let admin = '';
beforeAll(async () => {
  t = await makeApp({
    env: {
      RENTAL_WRITE_RATE_LIMIT: '100000',
      RENTAL_PUBLIC_RATE_LIMIT: '100000',
      ROVA_PAYOUT_WEBHOOK_SECRET: PAYOUT_SECRET,
    },
  });
  admin = (await t.userWithKey('administrator')).key;
  doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as Doc;
});
afterAll(async () => t?.close());

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolveRef(ref: string): unknown {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/'))
    node = isJson(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return node;
}

/** Every object schema (at `where`) that does not say `additionalProperties: false`. */
function openObjects(schema: unknown, where: string, seen: Set<string>, out: string[]): void {
  if (!isJson(schema)) return;
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return;
    openObjects(resolveRef(schema.$ref), where, new Set([...seen, schema.$ref]), out);
    return;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const isObject =
    types.includes('object') ||
    (schema.type === undefined && (isJson(schema.properties) || 'additionalProperties' in schema));
  if (isObject && schema.additionalProperties !== false) out.push(where);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list)) for (const s of list) openObjects(s, where, seen, out);
  }
  if (isJson(schema.not)) openObjects(schema.not, where, seen, out);
  if (Array.isArray(schema.prefixItems)) for (const s of schema.prefixItems) openObjects(s, `${where}[]`, seen, out);
  if (schema.items !== undefined) openObjects(schema.items, `${where}[]`, seen, out);
  if (isJson(schema.properties))
    for (const [k, s] of Object.entries(schema.properties)) openObjects(s, `${where}.${k}`, seen, out);
  if (isJson(schema.patternProperties))
    for (const [k, s] of Object.entries(schema.patternProperties)) openObjects(s, `${where}{${k}}`, seen, out);
  if (isJson(schema.additionalProperties)) openObjects(schema.additionalProperties, `${where}{*}`, seen, out);
}

function operations(): { method: string; path: string; op: Op }[] {
  const out: { method: string; path: string; op: Op }[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) if (op.requestBody) out.push({ method, path, op });
  return out;
}

const label = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const excused = (op: string, at: string) => EXCEPTIONS.find((e) => e.op.test(op) && e.at.test(at));

describe('every request body names its fields (from /openapi.json)', () => {
  it('every object schema of every request body, at any depth and in every content type, is closed (or a listed exception)', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(80);
    const types = new Set<string>();
    const open: string[] = [];
    const used = new Set<Exception>();
    for (const { method, path, op } of ops) {
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        types.add(type);
        const found: string[] = [];
        openObjects(media.schema, 'body', new Set(), found);
        for (const at of new Set(found)) {
          const e = excused(label(method, path), at);
          if (e) used.add(e);
          else open.push(`${label(method, path)} [${type}] ${at}`);
        }
      }
    }
    // the walk saw the multipart form too (POST /vendor/application)
    expect([...types]).toEqual(expect.arrayContaining(['application/json', 'multipart/form-data']));
    expect(open).toEqual([]);
    expect(EXCEPTIONS.filter((e) => !used.has(e)).map((e) => e.why)).toEqual([]);
  });

  it('authenticated routes name _wpnonce in their bodies; public routes do not', () => {
    const missing: string[] = [];
    for (const { method, path, op } of operations()) {
      const security = (op as { security?: unknown[] }).security;
      const isPublic = Array.isArray(security) && security.length === 0;
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        let schema = media.schema;
        if (isJson(schema) && typeof schema.$ref === 'string') schema = resolveRef(schema.$ref) as Json;
        const objects =
          isJson(schema) && Array.isArray(schema.anyOf)
            ? schema.anyOf.filter((s) => isJson(s) && s.type === 'object')
            : [schema];
        for (const o of objects as Json[]) {
          const named = isJson(o.properties) && '_wpnonce' in o.properties;
          if (named === isPublic)
            missing.push(
              `${label(method, path)} [${type}]: _wpnonce ${named ? 'named on a public route' : 'not named'}`,
            );
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

/** The first example of a JSON request body (every body has one: test/platform/openapi-quality.test.ts). */
function exampleOf(op: Op): unknown {
  const media = op.requestBody?.content?.['application/json'];
  if (!media) return undefined;
  if ('example' in media) return media.example;
  const ex = media.examples;
  if (Array.isArray(ex)) return ex[0];
  if (isJson(ex)) return Object.values(ex)[0]?.value;
  return undefined;
}

function signed(payload: string): Record<string, string> {
  const id = `msg_${Math.random().toString(36).slice(2, 12)}`;
  const at = new Date();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(PAYOUT_SECRET).sign(id, at, payload),
  };
}

/** The namespace's 400 for one unknown body property. */
function expectedError(path: string, field: string): Json {
  const message = `Invalid parameter(s): ${field}`;
  const params = { [field]: `unknown field "${field}"` };
  if (path.startsWith('/wp-json/rova-rental/'))
    return { success: false, error_code: 'INVALID_PARAMS', message, details: { params } };
  return { code: 'rest_invalid_param', message, data: { status: 400, params } };
}

describe('every write route refuses an unknown property', () => {
  it('POST/PUT/PATCH/DELETE with a JSON body: 400 in the namespace shape naming the property (an otherwise valid body, as an administrator)', async () => {
    const wrong: string[] = [];
    let sent = 0;
    for (const { method, path, op } of operations()) {
      if (!WRITE.includes(method) || !op.requestBody?.content?.['application/json']) continue;
      if (excused(label(method, path), 'body')) continue;
      const example = exampleOf(op);
      const body = { ...(isJson(example) ? example : {}), [UNKNOWN]: 1 };
      const payload = JSON.stringify(body);
      // validation comes before the handler: ids nothing has are fine (a 404 would mean the handler ran first)
      const url = path.replace(/\{[^}]+\}/g, '999999');
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-rova-api-key': admin };
      if (path.endsWith('/payouts/{id}/callback')) Object.assign(headers, signed(payload));
      const res = await t.inject({ method: method.toUpperCase() as 'POST', url, headers, payload });
      sent++;
      const got = String(res.headers['content-type'] ?? '').includes('json') ? (res.json() as Json) : res.body;
      try {
        expect(res.statusCode).toBe(400);
        expect(got).toEqual(expectedError(path, UNKNOWN));
      } catch {
        wrong.push(`${label(method, path)} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(sent).toBeGreaterThan(75);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('nested objects are closed too: an unknown key inside one is a 400 naming the top-level field', async () => {
    const send = (method: string, url: string, payload: unknown) =>
      t.inject({ method: method as 'POST', url, headers: { 'x-rova-api-key': admin }, payload: payload as Json });
    const cases: [string, string, Json, string][] = [
      [
        'POST',
        '/wp-json/rova-rental/v1/locations',
        {
          name: 'Nested',
          type: 'office',
          city: 'Izmir',
          opening_hours: { mon: { open: '09:00', close: '17:00', lunch: '12:00' } },
        },
        'opening_hours',
      ],
      [
        'POST',
        '/wp-json/rova-rental/v1/locations',
        { name: 'Nested', type: 'office', city: 'Izmir', opening_hours: { funday: { open: '09:00', close: '17:00' } } },
        'opening_hours',
      ],
      [
        'POST',
        '/wp-json/rova-rental/v1/bookings',
        { vehicle_id: 1, pickup_date: '2030-01-01', customer: { name: 'N', email: 'n@example.test', vip: true } },
        'customer',
      ],
      ['POST', '/wp-json/wc/v3/products', { name: 'Nested', categories: [{ id: 1, colour: 'red' }] }, 'categories'],
      [
        'POST',
        '/wp-json/wc/v3/products',
        { name: 'Nested', images: [{ src: 'https://example.com/a.png', caption: 'x' }] },
        'images',
      ],
      [
        'POST',
        '/wp-json/wc/v3/products',
        { name: 'Nested', attributes: [{ name: 'Colour', options: ['Red'], slug: 'x' }] },
        'attributes',
      ],
      [
        'POST',
        '/wp-json/wc/v3/products/categories',
        { name: 'Nested', image: { src: 'https://example.com/a.png', title: 'x' } },
        'image',
      ],
      ['POST', '/wp-json/wc/v3/products/batch', { update: [{ id: 1, regular_prize: '1' }] }, 'update'],
      // the maps of the EXCEPTIONS: their keys are checked by pattern
      [
        'POST',
        '/wp-json/wc/v3/products',
        { name: 'Nested', rova_fixed_prices: { [UNKNOWN]: '1.00' } },
        'rova_fixed_prices',
      ],
      [
        'PUT',
        '/wp-json/rova/v1/api-keys/999999/plan',
        { requests_per_minute: 10, route_costs: { [UNKNOWN]: 1 } },
        'route_costs',
      ],
      [
        'PUT',
        '/wp-json/rova-rental/v2/driver-settings',
        { min_age_by_category: { [UNKNOWN]: 25 } },
        'min_age_by_category',
      ],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await send(method, url, payload);
      const body = res.json() as { details?: { params?: Json }; data?: { params?: Json } };
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(400);
      expect(Object.keys(body.details?.params ?? body.data?.params ?? {}), res.body).toEqual([field]);
    }
  });
});

describe('wc/v3: WooCommerce clients send back what they read', () => {
  const WC = '/wp-json/wc/v3';
  const wc = (method: string, url: string, payload?: unknown) =>
    t.inject({
      method: method as 'GET',
      url: WC + url,
      headers: { 'x-rova-api-key': admin },
      ...(payload !== undefined ? { payload: payload as Json } : {}),
    });
  const ok = async (method: string, url: string, payload?: unknown, status = 200): Promise<Json> => {
    const r = await wc(method, url, payload);
    expect(r.statusCode, `${method} ${url}: ${r.body}`).toBe(status);
    return r.json() as Json;
  };
  /** What the client sends back: the object as read, plus WordPress' `_links` (real WooCommerce has them). */
  const whole = (o: Json) => ({
    ...o,
    _links: {
      self: [{ href: 'https://shop.example/wp-json/wc/v3/x' }],
      collection: [{ href: 'https://shop.example/wp-json/wc/v3' }],
    },
  });
  /** The fields a round trip may change: the modification time. */
  const stable = (o: Json) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('date_modified')));

  it('GET a product (and a variation, a category, a tag, an attribute, a term) and PUT it back whole: 200, nothing changed', async () => {
    const colour = await ok('POST', '/products/attributes', { name: 'Roof colour' }, 201);
    const red = await ok(
      'POST',
      `/products/attributes/${colour.id}/terms`,
      { name: 'Red', description: 'Bright' },
      201,
    );
    const parent = await ok('POST', '/products/categories', { name: 'Round trips' }, 201);
    const cat = await ok(
      'POST',
      '/products/categories',
      { name: 'Boxes', parent: parent.id, image: { src: 'https://example.com/box.png', alt: 'A box' } },
      201,
    );
    const tag = await ok('POST', '/products/tags', { name: 'summer', description: 'Hot days' }, 201);
    const product = await ok(
      'POST',
      '/products',
      {
        name: 'Round-trip roof box',
        type: 'variable',
        sku: 'RT-1',
        description: '<p>Big</p>',
        short_description: 'Box',
        categories: [{ id: cat.id }],
        tags: [{ id: tag.id }],
        images: [{ src: 'https://example.com/rt.png', name: 'rt', alt: 'Roof box' }],
        attributes: [
          { id: colour.id, visible: true, variation: true, options: ['Red'] },
          { name: 'Size', options: ['L', 'XL'] },
        ],
        rova_fixed_prices: { EUR: '49.00' },
      },
      201,
    );
    const variation = await ok(
      'POST',
      `/products/${product.id}/variations`,
      {
        regular_price: '59.00',
        sale_price: '55.00',
        sku: 'RT-1-RED',
        attributes: [{ id: colour.id, option: 'Red' }],
        image: { src: 'https://example.com/red.png' },
      },
      201,
    );

    const reads: [string, string][] = [
      [`/products/${product.id}`, `/products/${product.id}`],
      [`/products/${product.id}/variations/${variation.id}`, `/products/${product.id}/variations/${variation.id}`],
      [`/products/categories/${cat.id}`, `/products/categories/${cat.id}`],
      [`/products/tags/${tag.id}`, `/products/tags/${tag.id}`],
      [`/products/attributes/${colour.id}`, `/products/attributes/${colour.id}`],
      [`/products/attributes/${colour.id}/terms/${red.id}`, `/products/attributes/${colour.id}/terms/${red.id}`],
    ];
    for (const [read, write] of reads) {
      const before = await ok('GET', read);
      for (const method of ['PUT', 'PATCH']) {
        const after = await ok(method, write, whole(before));
        expect(stable(after), `${method} ${write}`).toEqual(stable(before));
      }
      expect(stable(await ok('GET', read))).toEqual(stable(before));
    }

    // the same through batch update, and with prices read in another currency (currency_code is read-only too)
    const p = await ok('GET', `/products/${product.id}`);
    const batch = await ok('POST', '/products/batch', { update: [whole(p)] });
    expect(stable((batch.update as Json[])[0]!)).toEqual(stable(p));
    const v = await ok('GET', `/products/${product.id}/variations/${variation.id}`);
    const vbatch = await ok('POST', `/products/${product.id}/variations/batch`, { update: [whole(v)] });
    expect(stable((vbatch.update as Json[])[0]!)).toEqual(stable(v));
  });

  it('read-only fields are ignored (an id or price in the body changes nothing); anything else is a 400 naming it', async () => {
    const p = await ok('POST', '/products', { name: 'Ignored fields', regular_price: '10.00' }, 201);
    const put = await ok('PUT', `/products/${p.id}`, {
      id: 1,
      price: '1.00',
      permalink: 'https://evil.example/',
      date_created: '2001-01-01T00:00:00',
      name: 'Renamed',
    });
    expect(put).toMatchObject({
      id: p.id,
      price: '10.00',
      permalink: p.permalink,
      date_created: p.date_created,
      name: 'Renamed',
    });
    for (const field of ['regular_prize', 'meta_data', 'low_stock_amount']) {
      const r = await wc('PUT', `/products/${p.id}`, { [field]: 1 });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual(expectedError('/wp-json/wc/v3', field));
    }
    // a read-only field still has its response type: garbage there is a 400, not silence
    const bad = await wc('PUT', `/products/${p.id}`, { on_sale: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys((bad.json() as { data: { params: Json } }).data.params)).toEqual(['on_sale']);
  });
});

describe('_wpnonce as a body parameter', () => {
  it('a cookie session authenticates with _wpnonce in a closed body; the handler never sees it', async () => {
    await t.userWithKey('administrator', ['read', 'write'], 'nonce_admin');
    const session = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/auth/login',
      payload: { login: 'nonce_admin', password: 'correct horse battery' },
    });
    expect(session.statusCode, session.body).toBe(200);
    const cookie = `rova_session=${session.cookies.find((c) => c.name === 'rova_session')!.value}`;
    const nonce = (session.json() as { nonce: string }).nonce;
    const writes: [string, string, Json, number][] = [
      [
        'POST',
        '/wp-json/rova/v1/users',
        { login: 'nonce_body_user', email: 'nonce-body@example.test', role: 'customer' },
        201,
      ],
      ['POST', '/wp-json/rova-rental/v1/locations', { name: 'Nonce office', type: 'office', city: 'Izmir' }, 201],
      ['POST', '/wp-json/rova-rental/v1/customers', { name: 'Nonce Body', email: 'nonce-customer@example.test' }, 201],
      ['POST', '/wp-json/wc/v3/products', { name: 'Nonce product' }, 201],
      ['POST', '/wp-json/rova-fx/v1/cache-notice/report', { kind: 'anomaly', path: '/nonce/' }, 200],
    ];
    for (const [method, url, body, status] of writes) {
      const res = await t.inject({
        method: method as 'POST',
        url,
        headers: { cookie },
        payload: { ...body, _wpnonce: nonce },
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
      expect(res.body).not.toContain('_wpnonce');
    }
    // without the nonce the cookie counts for nothing
    const anon = await t.inject({
      method: 'POST',
      url: '/wp-json/rova/v1/users',
      headers: { cookie },
      payload: { login: 'nonce_body_2', email: 'nonce-body-2@example.test', role: 'customer' },
    });
    expect(anon.statusCode).toBe(401);
  });
});
