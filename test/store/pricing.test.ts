import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { PricingCurrency } from '../../src/modules/store/currency-port.js';
import { activePrice, isSaleActive, priceRange, priceRecord } from '../../src/modules/store/pricing.js';
import { isPublicRecord } from '../../src/modules/store/public.js';
import type { PriceFacts } from '../../src/modules/store/types.js';

const now = new Date('2026-06-15T12:00:00Z');
const facts = (
  regular: string,
  sale = '',
  from: string | null = null,
  to: string | null = null,
  fixed: Record<string, string> = {},
): PriceFacts => ({
  regularPrice: regular,
  salePrice: sale,
  saleFrom: from ? new Date(from) : null,
  saleTo: to ? new Date(to) : null,
  fixedPrices: fixed,
});

/** EUR at 0.5, 2 decimals; fixed price wins. */
export const EUR_AT_HALF: PricingCurrency = {
  format: { code: 'EUR', symbol: '€', position: 'right_space', decimals: 2, decimalSep: ',', thousandSep: '.' },
  convert: (amount, fixed) => fixed ?? new Decimal(amount).times('0.5').toString(),
};

describe('sale rules', () => {
  it('active without a window, inside it, not before or after', () => {
    expect(isSaleActive(facts('100', '80'), now)).toBe(true);
    expect(isSaleActive(facts('100', '80', '2026-06-01T00:00:00Z', '2026-06-30T00:00:00Z'), now)).toBe(true);
    expect(isSaleActive(facts('100', '80', '2026-07-01T00:00:00Z', null), now)).toBe(false);
    expect(isSaleActive(facts('100', '80', null, '2026-06-15T11:59:59Z'), now)).toBe(false);
    expect(activePrice(facts('100', '80', '2026-07-01T00:00:00Z', null), now)).toBe('100');
  });
  it('a sale price not below the regular price, or without a regular price, is no sale', () => {
    expect(isSaleActive(facts('100', '100'), now)).toBe(false);
    expect(isSaleActive(facts('100', '120'), now)).toBe(false);
    expect(isSaleActive(facts('', '5'), now)).toBe(false);
    expect(activePrice(facts('', ''), now)).toBe('');
  });
});

describe('conversion', () => {
  it('converts price, regular, sale with the currency decimals; fixed price wins for all three', () => {
    expect(priceRecord(facts('99.99', '50'), now, EUR_AT_HALF)).toEqual({
      kind: 'single',
      price: '25.00',
      regular: '50.00',
      sale: '25.00',
      onSale: true,
    });
    expect(priceRecord(facts('100', '80', null, null, { EUR: '149.99' }), now, EUR_AT_HALF)).toMatchObject({
      price: '149.99',
      regular: '149.99',
      sale: '149.99',
    });
    expect(priceRecord(facts('100', '', null, null, { GBP: '1' }), now, EUR_AT_HALF)).toMatchObject({
      price: '50.00',
      sale: '',
    });
    expect(priceRecord(facts('19.90'), now, null)).toMatchObject({ price: '19.90', regular: '19.90', sale: '' });
  });
  it('variable range over children with a price', () => {
    const r = priceRange([facts('10'), facts('30', '5'), facts('')], now, null);
    expect(r).toEqual({
      kind: 'range',
      minPrice: '5',
      maxPrice: '10',
      minRegular: '10',
      maxRegular: '30',
      onSale: true,
    });
    expect(priceRange([], now, null).minPrice).toBe('');
    expect(priceRange([facts('10'), facts('20')], now, EUR_AT_HALF)).toMatchObject({
      minPrice: '5.00',
      maxPrice: '10.00',
    });
  });
});

describe('public-ness', () => {
  const p = (status: string, password = '', type: 'simple' | 'variable' | 'variation' = 'simple') =>
    ({ status, password, type }) as never;
  it('only published products without a password are public', () => {
    expect(isPublicRecord(p('publish'), null)).toBe(true);
    for (const s of ['draft', 'pending', 'private', 'future', 'trash']) expect(isPublicRecord(p(s), null)).toBe(false);
    expect(isPublicRecord(p('publish', 'secret'), null)).toBe(false);
  });
  it('a variation needs itself and its parent public', () => {
    expect(isPublicRecord(p('publish', '', 'variation'), p('publish', '', 'variable'))).toBe(true);
    expect(isPublicRecord(p('private', '', 'variation'), p('publish', '', 'variable'))).toBe(false);
    expect(isPublicRecord(p('publish', '', 'variation'), p('draft', '', 'variable'))).toBe(false);
    expect(isPublicRecord(p('publish', '', 'variation'), p('publish', 'pw', 'variable'))).toBe(false);
    expect(isPublicRecord(p('publish', '', 'variation'), null)).toBe(false);
  });
});
