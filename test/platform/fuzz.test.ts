import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { prng } from '../../src/platform/prng.js';

// Sends hostile input to every documented route as an administrator: nothing may answer 5xx.
// Deterministic (seeded) so a failure reproduces.

const NASTY: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  '',
  ' ',
  'a',
  '0',
  '-1',
  '1e9',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '\u0000',
  '\uD800',
  'é€😀',
  'x'.repeat(5000),
  [],
  [null],
  [1, 'a', {}],
  {},
  { $ne: 1 },
  { __proto__: { polluted: true } },
  '2026-02-30',
  '2026-13-01',
  '9999-12-31',
  '1970-01-01T00:00:00Z',
  'USD',
  'usd',
  'XXX',
];

/** encodeURIComponent that survives lone surrogates (sent raw as the bytes a broken client would send). */
function enc(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
}

function nasty(r: () => number): unknown {
  return NASTY[Math.floor(r() * NASTY.length)];
}

function randomBody(r: () => number, props: string[]): unknown {
  const roll = r();
  if (roll < 0.1) return nasty(r);
  const o: Record<string, unknown> = {};
  for (const p of props) if (r() < 0.8) o[p] = nasty(r);
  if (r() < 0.3) o['unexpected_' + Math.floor(r() * 100)] = nasty(r);
  return o;
}

let t: TestApp;
let key = '';
beforeAll(async () => {
  // limits high enough for a sweep of every parameter (the limits themselves are tested elsewhere)
  t = await makeApp({ env: { RENTAL_PUBLIC_RATE_LIMIT: '100000', RENTAL_WRITE_RATE_LIMIT: '100000' } });
  key = (await t.userWithKey('administrator')).key;
});
afterAll(async () => t?.close());

interface OpenApiParam {
  name: string;
  in: string;
  schema?: {
    type?: string | string[];
    anyOf?: { type?: string }[];
    enum?: unknown[];
    pattern?: string;
    format?: string;
  };
}
interface OpenApiOp {
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  parameters?: OpenApiParam[];
}

const typeOf = (p: OpenApiParam): string[] => {
  const t = p.schema?.type ?? p.schema?.anyOf?.map((x) => x.type ?? '');
  return Array.isArray(t) ? t : t ? [t] : [];
};

/** Every path and query parameter of the given type, as [method, path, parameter]. */
async function parametersOfType(type: string): Promise<[string, string, OpenApiParam][]> {
  const spec = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, OpenApiOp>>;
  };
  const out: [string, string, OpenApiParam][] = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method) || path.endsWith('/auth/login')) continue;
      for (const p of op.parameters ?? [])
        if ((p.in === 'query' || p.in === 'path') && typeOf(p).includes(type)) out.push([method, path, p]);
    }
  }
  return out;
}

/**
 * Sends one parameter with the value; other path parameters are an id nothing has (so a DELETE can never act,
 * and validation answers first anyway), other query parameters are absent.
 */
async function sendParameter(key: string, method: string, path: string, p: OpenApiParam, value: string) {
  const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    p.in === 'path' && name === p.name ? encodeURIComponent(value) : '999999',
  );
  const qs = p.in === 'query' ? `?${p.name}=${encodeURIComponent(value)}` : '';
  return t.inject({
    method: method.toUpperCase() as 'GET',
    url: url + qs,
    headers: { 'x-rova-api-key': key, 'content-type': 'application/json' },
    ...(method === 'get' || method === 'delete' ? {} : { payload: '{}' }),
  });
}

describe('validator fuzz over every documented route', () => {
  it('never answers 5xx', async () => {
    const spec = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, OpenApiOp>>;
    };
    const r = prng(20261121).next;
    const failures: string[] = [];
    let sent = 0;
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        if (path.endsWith('/auth/login')) continue; // rate limited by design; covered in auth tests
        const props = Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {});
        const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        for (let i = 0; i < 12; i++) {
          const url = path.replace(/\{[^}]+\}/g, () => enc(String(i % 3 === 0 ? Math.floor(r() * 5) + 1 : nasty(r))));
          const qs = new URLSearchParams();
          for (const q of query) if (r() < 0.5) qs.set(q, String(nasty(r)).replace(/[\uD800-\uDFFF]/g, '?'));
          const res = await t.inject({
            method: method.toUpperCase() as 'GET',
            url: qs.size ? `${url}?${qs}` : url,
            headers: { 'x-rova-api-key': key, 'content-type': 'application/json' },
            ...(method === 'get' || (method === 'delete' && r() < 0.5)
              ? {}
              : { payload: JSON.stringify(randomBody(r, props)) }),
          });
          sent++;
          if (res.statusCode >= 500)
            failures.push(`${method.toUpperCase()} ${url}?${qs} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  }, 240_000);
});

describe('numeric and text edge cases on every parameter', () => {
  // Its own administrator: the random fuzz above may revoke or delete the first one.
  let admin = '';
  beforeAll(async () => {
    admin = (await t.userWithKey('administrator')).key;
  });

  it('1e309, Infinity and -Infinity in any integer parameter are a 400 (never coerced to Infinity)', async () => {
    const params = await parametersOfType('integer');
    expect(params.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    for (const [method, path, p] of params) {
      for (const v of ['1e309', 'Infinity', '-Infinity']) {
        const res = await sendParameter(admin, method, path, p, v);
        // wc/v3 path ids are digits in the route itself, as in WordPress (`(?P<id>[\d]+)`): anything else is no route
        const noRoute =
          path.includes('/wc/v3/') &&
          p.in === 'path' &&
          res.statusCode === 404 &&
          (res.json() as { code?: string }).code === 'rest_no_route';
        if (res.statusCode !== 400 && !noRoute)
          wrong.push(
            `${method.toUpperCase()} ${path} ${p.in}:${p.name}=${v} → ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
      }
    }
    expect(wrong).toEqual([]);
  }, 240_000);

  it('a NUL character in any text parameter is a 400 naming the parameter', async () => {
    const params = await parametersOfType('string');
    expect(params.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const [method, path, p] of params) {
      const res = await sendParameter(admin, method, path, p, 'a\u0000b');
      const body = res.json() as {
        details?: { params?: Record<string, string> };
        data?: { params?: Record<string, string> };
      };
      const named = Object.keys(body.details?.params ?? body.data?.params ?? {});
      if (res.statusCode !== 400 || !named.includes(p.name))
        wrong.push(`${method.toUpperCase()} ${path} ${p.in}:${p.name} → ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  }, 240_000);

  it('an unpaired UTF-16 surrogate in any JSON body text is a 400 naming the field (never a database error)', async () => {
    const spec = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, OpenApiOp>>;
    };
    const wrong: string[] = [];
    let sent = 0;
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['post', 'put', 'patch'].includes(method) || path.endsWith('/auth/login')) continue;
        const props = op.requestBody?.content?.['application/json']?.schema?.properties ?? {};
        for (const [name, schema] of Object.entries(props)) {
          if (!typeOf({ name, in: 'body', schema } as OpenApiParam).includes('string')) continue;
          for (const text of ['a\uD800b', 'x\uDC00', '\uDBFF']) {
            const url = path.replace(/\{[^}]+\}/g, '999999');
            // JSON.stringify writes a lone surrogate as the escape "\ud800", as a hostile client would
            const res = await t.inject({
              method: method.toUpperCase() as 'POST',
              url,
              headers: { 'x-rova-api-key': admin, 'content-type': 'application/json' },
              payload: JSON.stringify({ [name]: text }),
            });
            sent++;
            const body = res.json() as {
              details?: { params?: Record<string, string> };
              data?: { params?: Record<string, string> };
            };
            const named = Object.keys(body.details?.params ?? body.data?.params ?? {});
            if (res.statusCode !== 400 || !named.includes(name))
              wrong.push(
                `${method.toUpperCase()} ${path} ${name}=${JSON.stringify(text)} → ${res.statusCode} ${res.body.slice(0, 160)}`,
              );
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  }, 240_000);

  it('GET /rova/v1/audit-log?route=%00 is a 400 in the WordPress shape', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/wp-json/rova/v1/audit-log?route=%00',
      headers: { 'x-rova-api-key': admin },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): route',
      data: { status: 400, params: { route: 'route must not contain a NUL character' } },
    });
  });
});
