import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isIsoCurrency } from '../../src/modules/fx/iso.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { adminOf, FX, product, variation } from './helpers.js';

// End to end through POST /currencies (sanitiser) and POST /convert (price HTML): every symbol position, every
// decimals setting 0–4 and several separator pairs, for a simple, a sale and a variable product. Expected strings
// are written out independently of the renderer.

const POSITIONS = ['left', 'right', 'left_space', 'right_space'] as const;
const DECIMALS = [0, 1, 2, 3, 4] as const;
/** [decimal_sep, thousand_sep, the thousand separator as it appears in HTML] */
const SEPARATORS = [
  ['.', ',', ','],
  [',', '.', '.'],
  [',', ' ', ' '],
  ['.', "'", '&#039;'],
  ['.', '', ''],
] as const;

// 1000 × 1234.567891 = 1234567.891 (simple, variable max); 500 × rate = 617283.9455 (sale price, variable min).
const RATE = 1234.567891;
const HIGH: Record<number, [string, string]> = {
  0: ['1234568', ''],
  1: ['1234567', '9'],
  2: ['1234567', '89'],
  3: ['1234567', '891'],
  4: ['1234567', '8910'],
};
const LOW: Record<number, [string, string]> = {
  0: ['617284', ''],
  1: ['617283', '9'],
  2: ['617283', '95'],
  3: ['617283', '946'],
  4: ['617283', '9455'],
};

const group = (int: string, sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
function number([int, frac]: [string, string], dec: string, thou: string): string {
  return group(int, thou) + (frac ? dec + frac : '');
}
function placed(sym: string, num: string, position: (typeof POSITIONS)[number]): string {
  if (position === 'left') return sym + num;
  if (position === 'right') return num + sym;
  if (position === 'left_space') return `${sym}&nbsp;${num}`;
  return `${num}&nbsp;${sym}`;
}
const amount = (num: string, position: (typeof POSITIONS)[number]) =>
  `<span class="woocommerce-Price-amount amount"><bdi>${placed('<span class="woocommerce-Price-currencySymbol">S&amp;</span>', num, position)}</bdi></span>`;
const text = (num: string, position: (typeof POSITIONS)[number]) => placed('S&amp;', num, position);

interface Combo {
  code: string;
  position: (typeof POSITIONS)[number];
  decimals: number;
  dec: string;
  thou: string;
  thouHtml: string;
}

let t: TestApp;
const id = { simple: 0, sale: 0, variable: 0 };
const combos: Combo[] = [];

beforeAll(async () => {
  t = await makeApp({ env: { FX_CONVERT_RATE_LIMIT: '0' } });
  const a = await adminOf(t, 'administrator');
  id.simple = await product(t, a.key, { name: 'Simple', regular_price: '1000' });
  id.sale = await product(t, a.key, { name: 'Sale', regular_price: '1000', sale_price: '500' });
  id.variable = await product(t, a.key, { name: 'Variable', type: 'variable' });
  await variation(t, a.key, id.variable, { regular_price: '500' });
  await variation(t, a.key, id.variable, { regular_price: '1000' });
  const codes = Intl.supportedValuesOf('currency').filter((c) => c !== 'USD' && isIsoCurrency(c));
  for (const position of POSITIONS) {
    for (const decimals of DECIMALS) {
      for (const [dec, thou, thouHtml] of SEPARATORS) {
        const code = codes[combos.length];
        if (!code) throw new Error('not enough ISO codes');
        combos.push({ code, position, decimals, dec, thou, thouHtml });
      }
    }
  }
  const r = await a.post('/currencies', {
    currencies: combos.map((c) => ({
      code: c.code,
      enabled: true,
      rate: { type: 'manual', value: RATE },
      format: { symbol: 'S&', position: c.position, decimals: c.decimals, decimal_sep: c.dec, thousand_sep: c.thou },
    })),
  });
  expect(r.statusCode).toBe(200);
  expect(r.json().adjustments).toEqual([]);
});
afterAll(async () => t?.close());

describe('price HTML for every position × decimals × separators', () => {
  it('simple, sale and variable products render exactly', async () => {
    expect(combos).toHaveLength(100);
    for (const c of combos) {
      const r = await t.inject({
        method: 'POST',
        url: `${FX}/convert`,
        payload: { currency: c.code, product_ids: [id.simple, id.sale, id.variable] },
      });
      expect(r.statusCode).toBe(200);
      const body = r.json() as { currency: string; prices: Record<string, string> };
      const label = `${c.code} ${c.position} ${c.decimals} "${c.dec}" "${c.thou}"`;
      expect(body.currency, label).toBe(c.code);
      const high = number(HIGH[c.decimals]!, c.dec, c.thouHtml);
      const low = number(LOW[c.decimals]!, c.dec, c.thouHtml);
      expect(body.prices[id.simple], label).toBe(amount(high, c.position));
      expect(body.prices[id.sale], label).toBe(
        `<del aria-hidden="true">${amount(high, c.position)}</del> <span class="screen-reader-text">Original price was: ${text(high, c.position)}.</span>` +
          `<ins aria-hidden="true">${amount(low, c.position)}</ins><span class="screen-reader-text">Current price is: ${text(low, c.position)}.</span>`,
      );
      expect(body.prices[id.variable], label).toBe(`${amount(low, c.position)} &ndash; ${amount(high, c.position)}`);
    }
  });

  it('a rate change reprices at once (no stale cached HTML): variable range 1000–2000 → 2000–4000', async () => {
    const a = await adminOf(t, 'administrator');
    const rangeAt = async (rate: number) => {
      await a.post('/currencies', {
        currencies: [{ code: 'EUR', enabled: true, rate: { type: 'manual', value: rate }, format: { symbol: 'E' } }],
      });
      const r = await t.inject({
        method: 'POST',
        url: `${FX}/convert`,
        payload: { currency: 'EUR', product_ids: [id.variable] },
      });
      return r.json().prices[id.variable] as string;
    };
    const sym = '<span class="woocommerce-Price-currencySymbol">E</span>';
    const amt = (n: string) => `<span class="woocommerce-Price-amount amount"><bdi>${sym}${n}</bdi></span>`;
    expect(await rangeAt(2)).toBe(`${amt('1,000.00')} &ndash; ${amt('2,000.00')}`);
    expect(await rangeAt(4)).toBe(`${amt('2,000.00')} &ndash; ${amt('4,000.00')}`);
  });
});
