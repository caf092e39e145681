import { describe, expect, it } from 'vitest';
import type { CurrencyFormat } from '../../src/modules/store/currency-port.js';
import { amountHtml, renderPriceHtml, roundAmount } from '../../src/modules/store/price-html.js';
import { intlFormat } from '../../src/modules/store/pricing.js';

const USD: CurrencyFormat = {
  code: 'USD',
  symbol: '$',
  position: 'left',
  decimals: 2,
  decimalSep: '.',
  thousandSep: ',',
};
const amt = (inner: string) => `<span class="woocommerce-Price-amount amount"><bdi>${inner}</bdi></span>`;
const sym = (s: string) => `<span class="woocommerce-Price-currencySymbol">${s}</span>`;

describe('amount markup', () => {
  it('places the symbol for every position', () => {
    expect(amountHtml('1234.5', USD)).toBe(amt(`${sym('$')}1,234.50`));
    expect(amountHtml('1234.5', { ...USD, position: 'right' })).toBe(amt(`1,234.50${sym('$')}`));
    expect(amountHtml('1234.5', { ...USD, position: 'left_space' })).toBe(amt(`${sym('$')}&nbsp;1,234.50`));
    expect(amountHtml('1234.5', { ...USD, position: 'right_space' })).toBe(amt(`1,234.50&nbsp;${sym('$')}`));
  });
  it('applies 0, 2 and 3 decimals, half away from zero', () => {
    expect(amountHtml('1234.5', { ...USD, decimals: 0 })).toBe(amt(`${sym('$')}1,235`));
    expect(amountHtml('2.5', { ...USD, decimals: 0 })).toBe(amt(`${sym('$')}3`));
    expect(amountHtml('1.005', USD)).toBe(amt(`${sym('$')}1.01`));
    expect(amountHtml('1.0005', { ...USD, decimals: 3 })).toBe(amt(`${sym('$')}1.001`));
    expect(amountHtml('9', { ...USD, decimals: 3 })).toBe(amt(`${sym('$')}9.000`));
    expect(roundAmount('-2.345', 2)).toBe('-2.35');
  });
  it('uses custom separators (also for millions)', () => {
    const EUR: CurrencyFormat = {
      code: 'EUR',
      symbol: '€',
      position: 'right_space',
      decimals: 2,
      decimalSep: ',',
      thousandSep: '.',
    };
    expect(amountHtml('1234567.891', EUR)).toBe(amt(`1.234.567,89&nbsp;${sym('€')}`));
    expect(amountHtml('999', { ...EUR, thousandSep: ' ' })).toBe(amt(`999,00&nbsp;${sym('€')}`));
    expect(amountHtml('1000', { ...EUR, thousandSep: '' })).toBe(amt(`1000,00&nbsp;${sym('€')}`));
  });
  it('escapes the symbol and separators', () => {
    expect(amountHtml('5', { ...USD, symbol: '<b>' })).toBe(amt(`${sym('&lt;b&gt;')}5.00`));
    expect(amountHtml('5', { ...USD, symbol: '"&\'' })).toBe(amt(`${sym('&quot;&amp;&#039;')}5.00`));
    expect(amountHtml('1000', { ...USD, thousandSep: '<' })).toBe(amt(`${sym('$')}1&lt;000.00`));
  });
  it('puts a minus sign inside the bdi', () => {
    expect(amountHtml('-3', USD)).toBe(amt(`-${sym('$')}3.00`));
  });
});

describe('price html', () => {
  it('empty price → ""', () => {
    expect(renderPriceHtml({ kind: 'single', price: '', regular: '', onSale: false }, USD)).toBe('');
    expect(
      renderPriceHtml(
        { kind: 'range', minPrice: '', maxPrice: '', minRegular: '', maxRegular: '', onSale: false },
        USD,
      ),
    ).toBe('');
  });
  it('simple price', () => {
    expect(renderPriceHtml({ kind: 'single', price: '19.9', regular: '19.9', onSale: false }, USD)).toBe(
      amt(`${sym('$')}19.90`),
    );
  });
  it('sale: del/ins with screen-reader texts (escaped symbol, &nbsp;)', () => {
    const fmt: CurrencyFormat = { ...USD, symbol: '<b>', position: 'left_space' };
    expect(renderPriceHtml({ kind: 'single', price: '80', regular: '100', onSale: true }, fmt)).toBe(
      `<del aria-hidden="true">${amt(`${sym('&lt;b&gt;')}&nbsp;100.00`)}</del> ` +
        `<span class="screen-reader-text">Original price was: &lt;b&gt;&nbsp;100.00.</span>` +
        `<ins aria-hidden="true">${amt(`${sym('&lt;b&gt;')}&nbsp;80.00`)}</ins>` +
        `<span class="screen-reader-text">Current price is: &lt;b&gt;&nbsp;80.00.</span>`,
    );
  });
  it('sale whose amounts format equally shows one amount', () => {
    expect(renderPriceHtml({ kind: 'single', price: '10.001', regular: '10.004', onSale: true }, USD)).toBe(
      amt(`${sym('$')}10.00`),
    );
  });
  it('variable: range when different, single amount when equal, sale when equal regulars', () => {
    expect(
      renderPriceHtml(
        { kind: 'range', minPrice: '5', maxPrice: '25', minRegular: '5', maxRegular: '25', onSale: false },
        USD,
      ),
    ).toBe(`${amt(`${sym('$')}5.00`)} &ndash; ${amt(`${sym('$')}25.00`)}`);
    expect(
      renderPriceHtml(
        { kind: 'range', minPrice: '4', maxPrice: '4.00', minRegular: '4', maxRegular: '4', onSale: false },
        USD,
      ),
    ).toBe(amt(`${sym('$')}4.00`));
    expect(
      renderPriceHtml(
        { kind: 'range', minPrice: '8', maxPrice: '8', minRegular: '10', maxRegular: '10', onSale: true },
        USD,
      ),
    ).toContain('<del aria-hidden="true">');
  });
});

describe('Intl base format', () => {
  it('symbol, decimals from ISO minor units, left, . and ,', () => {
    expect(intlFormat('USD')).toEqual({
      code: 'USD',
      symbol: '$',
      position: 'left',
      decimals: 2,
      decimalSep: '.',
      thousandSep: ',',
    });
    expect(intlFormat('JPY').decimals).toBe(0);
    expect(intlFormat('BHD').decimals).toBe(3);
    expect(intlFormat('EUR').symbol).toBe('€');
  });
});
