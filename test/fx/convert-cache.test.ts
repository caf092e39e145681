import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConvertAnswers } from '../../src/modules/fx/convert-cache.js';
import { fxRuntime } from '../../src/modules/fx/state.js';
import { catalogueView } from '../../src/modules/store/catalogue-view.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, FIXTURES, FX, product, row, serve, variation, type Admin } from './helpers.js';

// POST /convert keeps finished answers (convert-cache.ts). Every test here asks for the same batch twice with a
// change in between: a cache that missed that change would answer the first body again.

const ERA_JSON = readFileSync(`${FIXTURES}/exchangerate-api-v4-latest-CNY-2023-05-30.json`, 'utf8');
const amount = (n: string, sym: string) =>
  `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">${sym}</span>${n}</bdi></span>`;
const CURX = { symbol: 'CURX', decimals: 2, decimal_sep: '.', thousand_sep: ',', position: 'left' };
const sleepUntil = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms - Date.now())));
/** An instant on a whole second at least `ahead` ms from now (the product API keeps sale dates to the second). */
const wholeSecondAhead = (ahead: number) => Math.ceil((Date.now() + ahead) / 1000) * 1000;

let t: TestApp;
let a: Admin;
let eraRate = 0.9;
let era: Awaited<ReturnType<typeof serve>>;

const convert = async (currency: string | null, ids: number[]) => {
  const r = await t.inject({ method: 'POST', url: `${FX}/convert`, payload: { currency, product_ids: ids } });
  expect(r.statusCode, r.body).toBe(200);
  return r.body;
};
const wc = (method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>) =>
  t.inject({ method, url: `/wp-json/wc/v3${url}`, headers: { 'x-rova-api-key': a.key }, payload }).then((r) => {
    expect(r.statusCode, r.body).toBeLessThan(300);
  });

beforeAll(async () => {
  era = await serve((_req, res) => {
    const j = JSON.parse(ERA_JSON) as Record<string, unknown>;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...j, base: 'USD', rates: { EUR: eraRate } }));
  });
  t = await makeApp({ env: { FX_CONVERT_RATE_LIMIT: '100000', FX_EXCHANGERATE_API_URL: `${era.url}/v4` } });
  a = await adminOf(t, 'administrator');
  const r = await a.post('/currencies', { currencies: [row('EUR', 2, { format: CURX }), row('JPY', 150)] });
  expect(r.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await era?.close();
});

describe('POST /convert answer cache', () => {
  it('serves a repeated batch from the cache, byte for byte, per currency and id order', async () => {
    const p1 = await product(t, a.key, { name: 'One', regular_price: '10' });
    const p2 = await product(t, a.key, { name: 'Two', regular_price: '20' });
    const answers = fxRuntime(t.platform).answers;
    const first = await convert('EUR', [p1, p2]);
    const before = answers.size;
    expect(await convert('EUR', [p1, p2])).toBe(first);
    expect(answers.size).toBe(before);
    expect(first).toBe(
      `{"currency":"EUR","detected":false,"prices":{"${p1}":${JSON.stringify(amount('20.00', 'CURX'))},"${p2}":${JSON.stringify(amount('40.00', 'CURX'))}}}`,
    );
    // another order, another currency, a base request: answers of their own
    expect(await convert('EUR', [p2, p1])).toBe(
      `{"currency":"EUR","detected":false,"prices":{"${p2}":${JSON.stringify(amount('40.00', 'CURX'))},"${p1}":${JSON.stringify(amount('20.00', 'CURX'))}}}`,
    );
    expect(JSON.parse(await convert('JPY', [p1])).prices[p1]).toBe(amount('1,500', '¥'));
    expect(JSON.parse(await convert('ZZZ', [p1]))).toEqual({
      currency: 'USD',
      detected: false,
      prices: { [p1]: amount('10.00', '$') },
    });
  });

  it('a product price edit, a fixed price, a status change and a variation edit change the answer', async () => {
    const p = await product(t, a.key, { name: 'Edited', regular_price: '10' });
    const v = await product(t, a.key, { name: 'Variable', type: 'variable' });
    const v1 = await variation(t, a.key, v, { regular_price: '5' });
    await variation(t, a.key, v, { regular_price: '9' });
    const ids = [p, v, v1];
    const prices = async () => JSON.parse(await convert('EUR', ids)).prices as Record<string, string>;
    expect(await prices()).toEqual({
      [p]: amount('20.00', 'CURX'),
      [v]: `${amount('10.00', 'CURX')} &ndash; ${amount('18.00', 'CURX')}`,
      [v1]: amount('10.00', 'CURX'),
    });
    await wc('PUT', `/products/${p}`, { regular_price: '12' });
    expect((await prices())[p]).toBe(amount('24.00', 'CURX'));
    await wc('PUT', `/products/${p}`, { rova_fixed_prices: { EUR: '99.99' } });
    expect((await prices())[p]).toBe(amount('99.99', 'CURX'));
    await wc('PUT', `/products/${v}/variations/${v1}`, { regular_price: '1' });
    const after = await prices();
    expect(after[v]).toBe(`${amount('2.00', 'CURX')} &ndash; ${amount('18.00', 'CURX')}`);
    expect(after[v1]).toBe(amount('2.00', 'CURX'));
    await wc('PUT', `/products/${p}`, { status: 'draft' });
    expect(await prices()).not.toHaveProperty(String(p));
  });

  it('a fee, a rounding, a format and a rate change (saved currencies) change the answer', async () => {
    const p = await product(t, a.key, { name: 'Fees', regular_price: '10' });
    const eur = async () => JSON.parse(await convert('EUR', [p])).prices[p] as string;
    expect(await eur()).toBe(amount('20.00', 'CURX'));
    await a.post('/currencies', {
      currencies: [row('EUR', 2, { format: CURX, fee: { type: 'percentage', value: 10 } }), row('JPY', 150)],
    });
    expect(await eur()).toBe(amount('22.00', 'CURX'));
    await a.post('/currencies', {
      currencies: [
        row('EUR', 2, {
          format: CURX,
          fee: { type: 'percentage', value: 10 },
          rounding: { type: 'up', value: 5, subtract: 0.01 },
        }),
        row('JPY', 150),
      ],
    });
    expect(await eur()).toBe(amount('24.99', 'CURX'));
    await a.post('/currencies', {
      currencies: [row('EUR', 2, { format: { ...CURX, symbol: '€', position: 'right' } }), row('JPY', 150)],
    });
    expect(await eur()).toBe(
      '<span class="woocommerce-Price-amount amount"><bdi>20.00<span class="woocommerce-Price-currencySymbol">€</span></bdi></span>',
    );
    await a.post('/currencies', { currencies: [row('EUR', 3, { format: CURX }), row('JPY', 150)] });
    expect(await eur()).toBe(amount('30.00', 'CURX'));
    // a currency switched off: the same request now answers in the base currency
    await a.post('/currencies', { currencies: [row('EUR', 3, { format: CURX, enabled: false }), row('JPY', 150)] });
    expect(JSON.parse(await convert('EUR', [p]))).toEqual({
      currency: 'USD',
      detected: false,
      prices: { [p]: amount('10.00', '$') },
    });
    await a.post('/currencies', { currencies: [row('EUR', 2, { format: CURX }), row('JPY', 150)] });
  });

  it('a rate sync changes the answer', async () => {
    const p = await product(t, a.key, { name: 'Synced', regular_price: '100' });
    await a.post('/currencies', {
      currencies: [{ ...row('EUR', 0.9, { format: CURX }), rate: { type: 'auto', value: 0.9 } }, row('JPY', 150)],
    });
    const eur = async () => JSON.parse(await convert('EUR', [p])).prices[p] as string;
    expect(await eur()).toBe(amount('90.00', 'CURX'));
    eraRate = 0.95;
    const r = await a.post('/rates/sync');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().updated).toEqual(['EUR']);
    expect(await eur()).toBe(amount('95.00', 'CURX'));
    await a.post('/currencies', { currencies: [row('EUR', 2, { format: CURX }), row('JPY', 150)] });
  });

  it('a sale window opening and closing between two identical requests changes the answer (simple and variable)', async () => {
    const from = wholeSecondAhead(1500);
    const to = from + 1000; // on sale while from ≤ t ≤ to (to inclusive, to the millisecond)
    const window = {
      date_on_sale_from_gmt: new Date(from).toISOString().slice(0, 19),
      date_on_sale_to_gmt: new Date(to).toISOString().slice(0, 19),
    };
    const p = await product(t, a.key, { name: 'Flash sale', regular_price: '10', sale_price: '8', ...window });
    const v = await product(t, a.key, { name: 'Flash variable', type: 'variable' });
    await variation(t, a.key, v, { regular_price: '10', sale_price: '6', ...window });
    await variation(t, a.key, v, { regular_price: '10' });
    const ids = [p, v];
    const prices = async () => JSON.parse(await convert('EUR', ids)).prices as Record<string, string>;

    const before = await prices();
    expect(await prices()).toEqual(before);
    expect(before[p]).toBe(amount('20.00', 'CURX'));
    expect(before[v]).toBe(amount('20.00', 'CURX'));
    expect(Date.now()).toBeLessThan(from);

    await sleepUntil(from + 50);
    const during = await prices();
    expect(during[p]).toContain('<ins aria-hidden="true">' + amount('16.00', 'CURX') + '</ins>');
    expect(during[v]).toBe(`${amount('12.00', 'CURX')} &ndash; ${amount('20.00', 'CURX')}`);
    expect(Date.now()).toBeLessThanOrEqual(to);

    await sleepUntil(to + 50);
    expect(await prices()).toEqual(before);
  });

  it('knows when the next sale window among a batch opens or closes', async () => {
    const from = Date.parse('2031-01-01T00:00:00Z');
    const to = Date.parse('2031-02-01T00:00:00Z');
    const p = await product(t, a.key, {
      name: 'Later',
      regular_price: '10',
      sale_price: '8',
      date_on_sale_from_gmt: '2031-01-01T00:00:00',
      date_on_sale_to_gmt: '2031-02-01T00:00:00',
    });
    const notCheaper = await product(t, a.key, {
      name: 'Never on sale',
      regular_price: '10',
      sale_price: '12',
      date_on_sale_from_gmt: '2030-01-01T00:00:00',
    });
    const v = await product(t, a.key, { name: 'Variable later', type: 'variable' });
    await variation(t, a.key, v, {
      regular_price: '10',
      sale_price: '7',
      date_on_sale_from_gmt: '2032-01-01T00:00:00',
    });
    const plain = await product(t, a.key, { name: 'Plain', regular_price: '10' });
    const view = catalogueView(t.platform);
    await view.load();
    expect(view.nextSaleChange([plain, notCheaper], Date.now())).toBe(Infinity);
    expect(view.nextSaleChange([plain, p, v], Date.now())).toBe(from);
    expect(view.nextSaleChange([plain, p, v], from)).toBe(to + 1);
    expect(view.nextSaleChange([v], Date.now())).toBe(Date.parse('2032-01-01T00:00:00Z'));
    expect(view.nextSaleChange([p, v], to + 1)).toBe(Date.parse('2032-01-01T00:00:00Z'));
  });
});

describe('POST /convert with the same body text again (its parsed body is shared)', () => {
  const raw = (payload: string) =>
    t.inject({ method: 'POST', url: `${FX}/convert`, headers: { 'content-type': 'application/json' }, payload });

  it('refusals are refused every time: NUL characters, a non-finite number, prototype keys, unknown fields, bad types', async () => {
    for (const body of [
      '{"currency":"EUR","product_ids":["1\\u0000"]}',
      '{"currency":"EUR","product_ids":[1e309]}',
      '{"currency":"EUR","product_ids":[1],"__proto__":{"x":1}}',
      '{"currency":"EUR","product_ids":[1],"extra":true}',
      '{"currency":12,"product_ids":[1]}',
      '{"currency":"EUR"}',
    ]) {
      const first = await raw(body);
      expect(first.statusCode, body).toBe(400);
      const again = await raw(body);
      expect(again.statusCode, body).toBe(400);
      expect(again.body).toBe(first.body);
    }
  });

  it('an accepted body gives the same answer each time, and each request still counts against the limit', async () => {
    const p = await product(t, a.key, { name: 'Repeated', regular_price: '10' });
    const limited = await makeApp({ env: { FX_CONVERT_RATE_LIMIT: '3' } });
    try {
      const body = JSON.stringify({ currency: null, product_ids: [p, String(p), 'x'] });
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push(
          (
            await limited.inject({
              method: 'POST',
              url: `${FX}/convert`,
              headers: { 'content-type': 'application/json' },
              payload: body,
            })
          ).statusCode,
        );
      expect(codes).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
    const body = JSON.stringify({ currency: ' eur ', product_ids: [p, String(p), 'x'] });
    const first = await raw(body);
    expect(first.json()).toEqual({ currency: 'EUR', detected: false, prices: { [p]: amount('20.00', 'CURX') } });
    expect((await raw(body)).body).toBe(first.body);
  });
});

describe('ConvertAnswers bounds', () => {
  const fx = {};
  const cat = {};
  const answer = (bytes: number) => ({ body: Buffer.alloc(bytes, 'x'), fx, catalogue: cat, until: Infinity });

  it('keeps at most maxEntries answers; the least recently used ids go first, with all their currencies', () => {
    const c = new ConvertAnswers(4, 1 << 20);
    for (const k of ['1', '2', '3']) c.set(k, 'EUR', answer(10));
    c.set('1', 'JPY', answer(10));
    for (const k of ['2', '3']) expect(c.get(k, 'EUR', fx, cat, 0)).not.toBeNull(); // 1 is now the least recently used
    c.set('4', 'EUR', answer(10));
    expect(c.size).toBe(3);
    expect(c.get('1', 'EUR', fx, cat, 0)).toBeNull();
    expect(c.get('1', 'JPY', fx, cat, 0)).toBeNull();
    for (const k of ['2', '3', '4']) expect(c.get(k, 'EUR', fx, cat, 0), k).not.toBeNull();
    expect(c.get('2', 'USD', fx, cat, 0)).toBeNull();
  });

  it('keeps at most maxBytes of answers; an answer larger than the budget is not kept', () => {
    const c = new ConvertAnswers(100, 1000);
    for (let i = 0; i < 10; i++) c.set(`${i}`, 'EUR', answer(250));
    expect(c.bytes).toBeLessThanOrEqual(1000);
    expect(c.size).toBe(3);
    c.set('huge', 'EUR', answer(2000));
    expect(c.get('huge', 'EUR', fx, cat, 0)).toBeNull();
    expect(c.size).toBe(3);
    c.set('9', 'EUR', answer(250)); // replacing an answer counts it once
    expect(c.size).toBe(3);
  });

  it('an answer built from another snapshot or catalogue, or past its time, is not served (and is dropped)', () => {
    const c = new ConvertAnswers();
    c.set('1', 'EUR', { ...answer(10), until: 1000 });
    expect(c.get('1', 'EUR', {}, cat, 0)).toBeNull();
    c.set('1', 'EUR', { ...answer(10), until: 1000 });
    expect(c.get('1', 'EUR', fx, {}, 0)).toBeNull();
    c.set('1', 'EUR', { ...answer(10), until: 1000 });
    expect(c.get('1', 'EUR', fx, cat, 999)).not.toBeNull();
    expect(c.get('1', 'EUR', fx, cat, 1000)).toBeNull();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
  });
});
