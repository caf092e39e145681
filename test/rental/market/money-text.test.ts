import { describe, expect, it } from 'vitest';
import { moneyText } from '../../../src/modules/rental/ledger/money.js';

describe('moneyText: minor units → money in the currency format (audit notes)', () => {
  it('formats exactly with the currency’s own decimals and symbol', () => {
    expect(moneyText(17936, 'EUR')).toBe('€179.36');
    expect(moneyText(-5, 'USD')).toBe('-$0.05');
    expect(moneyText(1200, 'JPY')).toBe('¥1,200');
    expect(moneyText(1234567, 'KWD')).toBe('KWD\u00a01,234.567');
    expect(moneyText('900719925474099', 'USD')).toBe('$9,007,199,254,740.99');
  });
});
