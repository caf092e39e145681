import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { expectWpError, fixtures, rawClient, snapshot as snap, type Method } from './hostile.js';
import { prng } from '../../src/platform/prng.js';

/**
 * Random and nasty bodies (deterministic PRNG, replayable from the seed) on every wc/v3 write route: never a
 * 500, always the WP error shape, and a refused request writes nothing (whole-table snapshot before/after).
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

const FIELDS = [
  'name',
  'slug',
  'sku',
  'type',
  'status',
  'password',
  'description',
  'short_description',
  'regular_price',
  'sale_price',
  'date_on_sale_from',
  'date_on_sale_to',
  'date_on_sale_from_gmt',
  'date_on_sale_to_gmt',
  'catalog_visibility',
  'stock_status',
  'categories',
  'images',
  'image',
  'attributes',
  'menu_order',
  'rova_fixed_prices',
  'id',
  'parent_id',
  'variations',
];
const NASTY_STRINGS = [
  '',
  ' ',
  'publish',
  'private',
  'draft',
  'trash',
  'variable',
  'simple',
  'visible',
  'instock',
  '12.50',
  '0',
  '-1',
  '1e3',
  'NaN',
  '999999999999999.9999999999',
  '9999999999999999',
  '2026-05-01',
  '2026-02-30',
  '2026-05-01T10:00:00+02:00',
  '0000-01-01',
  '<script>alert(1)</script>',
  "'; DROP TABLE rova_products; --",
  '%_\\',
  'ünïcødé',
  '🚗🚙',
  '\u0000',
  '\ud800',
  'a'.repeat(500),
  'FZ-1',
  'Fuzz simple',
  '__proto__',
  'constructor',
];

function nasty(r: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  switch (Math.floor(r() * (depth > 2 ? 6 : 9))) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return pick([0, -1, 1, 1.5, 1e300, -1e300, 2 ** 53, 2 ** 63, Number.MAX_SAFE_INTEGER, 3]);
    case 3:
    case 4:
    case 5:
      return pick(NASTY_STRINGS);
    case 6:
    case 7:
      return Array.from({ length: Math.floor(r() * 3) }, () => nasty(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 4); i > 0; i -= 1)
        o[pick(['id', 'name', 'src', 'option', 'options', 'EUR', 'eur', 'alt', 'slug'])] = nasty(r, depth + 1);
      return o;
    }
  }
}

/** Percent-encodes for a URL; a lone surrogate becomes invalid UTF-8 on purpose. */
function enc(x: string): string {
  try {
    return encodeURIComponent(x);
  } catch {
    return '%ED%A0%80';
  }
}

/** A well-typed value for a field (its text drawn from the nasty strings), so bodies get past the schema and reach the database. */
function typed(field: string, r: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const text = () => pick(NASTY_STRINGS);
  const price = () =>
    pick(['', '0', '12.50', '007.5', '999999999999999.9999999999', '1.0000000001', ...NASTY_STRINGS.slice(0, 12)]);
  const int = () => pick([0, 1, 3, 1_000_000, Number.MAX_SAFE_INTEGER]);
  switch (field) {
    case 'regular_price':
    case 'sale_price':
      return price();
    case 'date_on_sale_from':
    case 'date_on_sale_to':
    case 'date_on_sale_from_gmt':
    case 'date_on_sale_to_gmt':
      return pick([
        null,
        '',
        '2026-05-01',
        '2099-12-31T23:59:59',
        '2026-05-01T10:00:00+02:00',
        '0001-01-01',
        '2026-02-30',
        text(),
      ]);
    case 'categories':
      return [{ id: int() || 1, name: text(), slug: text() }];
    case 'images':
      return [{ id: int(), src: text(), name: text(), alt: text() }];
    case 'image':
      return pick([null, { src: text(), alt: text() }]);
    case 'attributes':
      return [{ name: text(), option: text(), options: [text(), text()] }];
    case 'menu_order':
      return pick([0, -1, 1_000_000, 1_000_001, 5]);
    case 'rova_fixed_prices':
      return pick([{ EUR: price() }, { [text()]: '1.00' }, { GBP: '', JPY: '100' }]);
    case 'type':
      return pick(['simple', 'variable', text()]);
    case 'status':
      return pick(['publish', 'private', 'draft', 'trash', 'pending', 'future', text()]);
    case 'catalog_visibility':
      return pick(['visible', 'hidden', text()]);
    case 'stock_status':
      return pick(['instock', 'outofstock', text()]);
    case 'id':
    case 'parent_id':
      return int();
    case 'variations':
      return [int()];
    default:
      return text();
  }
}

function body(r: () => number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let i = 1 + Math.floor(r() * 4); i > 0; i -= 1) {
    const field = FIELDS[Math.floor(r() * FIELDS.length)]!;
    o[field] = r() < 0.75 ? typed(field, r) : nasty(r);
  }
  return o;
}

describe('random and nasty bodies on every write route', () => {
  it('never a 500, always the WP error shape, and a refused request writes nothing', async () => {
    const seed = 20261121;
    const r = prng(seed).next;
    const counts = { ok: 0, refused: 0 };
    /** Keeps the fixtures alive: their ids are swapped for an unknown one. */
    const spare = (v: unknown): unknown => ([simple, variable, variation].includes(v as number) ? 999_999 : v);
    for (let i = 0; i < 160; i += 1) {
      const kind = i % 6;
      let method: Method;
      let url: string;
      let payload: unknown;
      if (kind === 0) [method, url, payload] = ['POST', '/products', body(r)];
      else if (kind === 1) [method, url, payload] = [r() < 0.5 ? 'PUT' : 'PATCH', `/products/${simple}`, body(r)];
      else if (kind === 2) [method, url, payload] = ['POST', `/products/${variable}/variations`, body(r)];
      else if (kind === 3)
        [method, url, payload] = [
          r() < 0.5 ? 'PUT' : 'PATCH',
          `/products/${variable}/variations/${variation}`,
          body(r),
        ];
      else if (kind === 4) {
        // a batch of mostly good items with the odd nasty one: all or nothing
        const item = () => (r() < 0.7 ? { name: `Batch ${i}`, regular_price: '1.00' } : body(r));
        payload = {
          create: Array.from({ length: 1 + Math.floor(r() * 3) }, item),
          ...(r() < 0.5 ? { update: [{ ...body(r), id: simple }] } : {}),
          ...(r() < 0.3 ? { delete: [r() < 0.5 ? spare(nasty(r)) : 999_999] } : {}),
        };
        [method, url] = ['POST', '/products/batch'];
      } else {
        const id = String(nasty(r));
        const target = [simple, variable, variation].map(String).includes(id) ? '999999' : enc(id);
        [method, url, payload] = ['DELETE', `/products/${target}?force=${enc(String(nasty(r)))}`, undefined];
      }
      const before = await snapshot();
      const res = await send(method, url, payload === undefined ? undefined : JSON.stringify(payload));
      const label = `#${i} (seed ${seed}) ${method} ${url} ${JSON.stringify(payload)?.slice(0, 300)}`;
      expect(res.statusCode, `${label} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
      if (res.statusCode >= 400) {
        counts.refused += 1;
        expectWpError(res, label);
        expect(await snapshot(), label).toEqual(before);
      } else {
        counts.ok += 1;
      }
      // keep the fixtures usable for the next rounds
      if (
        (await send('GET', `/products/${simple}`)).statusCode !== 200 ||
        (await send('GET', `/products/${variable}/variations/${variation}`)).statusCode !== 200
      ) {
        break;
      }
    }
    // the generator must exercise both outcomes, or this test proves nothing
    expect(counts.ok + counts.refused, 'fixtures survived every round').toBe(160);
    expect(counts.refused).toBeGreaterThan(40);
    expect(counts.ok).toBeGreaterThan(10);
  });
});
