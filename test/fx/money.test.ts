import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CURRENCY, currencyForCountry, isIsoCurrency, minorUnits } from '../../src/modules/fx/iso.js';
import { convertAmount, effectiveRate, isUsable } from '../../src/modules/fx/money.js';
import { amountText } from '../../src/modules/store/price-html.js';
import { sanitiseRow } from '../../src/modules/fx/sanitise.js';
import { pricingFor } from '../../src/modules/fx/state.js';
import type { CurrencyRow } from '../../src/modules/fx/types.js';

const mk = (code: string, input: Record<string, unknown>): CurrencyRow =>
  sanitiseRow(code, { enabled: true, ...input }, []);
const USD = mk('USD', { rate: { value: 0.03 }, fee: { type: 'percentage', value: 2 } });
const EUR = mk('EUR', {
  rate: { value: 0.025 },
  fee: { type: 'fixed', value: 0.001 },
  rounding: { type: 'nearest', value: 1, subtract: 0.01 },
});
const conv = (amount: string, row: CurrencyRow) => convertAmount(new Decimal(amount), row).toString();

describe('conversion (base TRY examples from the reference)', () => {
  it('effective rate: percentage, fixed, none', () => {
    expect(effectiveRate(USD).toString()).toBe('0.0306');
    expect(effectiveRate(mk('EUR', { rate: { value: 0.92 }, fee: { type: 'percent', value: 2.5 } })).toString()).toBe(
      '0.943',
    );
    expect(effectiveRate(mk('EUR', { rate: { value: 0.92 }, fee: { type: 'fixed', value: 0.03 } })).toString()).toBe(
      '0.95',
    );
    expect(effectiveRate(mk('EUR', { rate: { value: 0.92 }, fee: { type: 'none', value: 5 } })).toString()).toBe(
      '0.92',
    );
  });
  it('converts with fee and rounding; ≤ 0 amounts unchanged', () => {
    expect(conv('1000', USD)).toBe('30.6');
    expect(conv('1000', EUR)).toBe('25.99');
    expect(conv('47.30', mk('EUR', { rate: { value: 1 }, rounding: { type: 'up', value: 1, subtract: 0.01 } }))).toBe(
      '47.99',
    );
    expect(conv('123', mk('USD', { rate: { value: 0.03 }, rounding: { type: 'nearest', value: 1 } }))).toBe('4');
    expect(conv('123', mk('USD', { rate: { value: 0.03 }, rounding: { type: 'down', value: 0.5 } }))).toBe('3.5');
    expect(conv('0', USD)).toBe('0');
    expect(conv('-100', USD)).toBe('-100');
  });
  it('the rounding guard keeps the unrounded value when rounding would make it ≤ 0', () => {
    expect(
      conv('10', mk('EUR', { rate: { value: 0.03 }, rounding: { type: 'nearest', value: 1, subtract: 0.01 } })),
    ).toBe('0.3');
  });
  it('usable: raw > 0 and effective > 0', () => {
    expect(isUsable(mk('GBP', { rate: { value: 0 } }))).toBe(false);
    const zeroPlusFee = mk('GBP', { rate: { value: 0 }, fee: { type: 'fixed', value: 2 } });
    expect(isUsable(zeroPlusFee)).toBe(false);
    expect(conv('100', zeroPlusFee)).toBe('100');
    expect(isUsable(mk('GBP', { rate: { value: 0.5 }, fee: { type: 'percentage', value: -100 } }))).toBe(false);
    expect(isUsable(mk('GBP', { rate: { value: 0.02 } }))).toBe(true);
    expect(conv('100', mk('GBP', { rate: { value: 0.02 } }))).toBe('2');
  });
  it('decimal arithmetic, no float noise', () => {
    expect(conv('0.1', mk('EUR', { rate: { value: 3 } }))).toBe('0.3');
    expect(pricingFor(USD).convert('1000', undefined)).toBe('30.6');
    expect(pricingFor(USD).convert('1000', '25')).toBe('25');
  });
  it('formats half away from zero with separators', () => {
    // Formatting is the store's renderer (one implementation for every surface).
    const f = { code: 'EUR', symbol: '', position: 'left' as const, decimals: 2, decimalSep: ',', thousandSep: '.' };
    expect(amountText('1234567.005', f)).toBe('1.234.567,01');
    expect(amountText('-2.345', f)).toBe('-2,35');
    expect(amountText('999.5', { ...f, decimals: 0 })).toBe('1.000');
  });
});

describe('currency facts', () => {
  it('minor units from ISO 4217', () => {
    expect([minorUnits('JPY'), minorUnits('KWD'), minorUnits('EUR'), minorUnits('BHD')]).toEqual([0, 3, 2, 3]);
    expect(isIsoCurrency('EUR')).toBe(true);
    expect(isIsoCurrency('ZZZ')).toBe(false);
    expect(isIsoCurrency('eur')).toBe(false);
  });
  it('the country table is complete and maps the eurozone to EUR', () => {
    expect(COUNTRY_CURRENCY.size).toBeGreaterThanOrEqual(249);
    for (const c of [
      'AT',
      'BE',
      'CY',
      'DE',
      'EE',
      'ES',
      'FI',
      'FR',
      'GR',
      'HR',
      'IE',
      'IT',
      'LT',
      'LU',
      'LV',
      'MT',
      'NL',
      'PT',
      'SI',
      'SK',
    ]) {
      expect(currencyForCountry(c), c).toBe('EUR');
    }
    expect(currencyForCountry('tr')).toBe('TRY');
    expect([
      currencyForCountry('US'),
      currencyForCountry('GB'),
      currencyForCountry('JP'),
      currencyForCountry('CH'),
    ]).toEqual(['USD', 'GBP', 'JPY', 'CHF']);
    expect(currencyForCountry('ZZ')).toBeNull();
    for (const cur of COUNTRY_CURRENCY.values()) expect(isIsoCurrency(cur), cur).toBe(true);
  });
});
