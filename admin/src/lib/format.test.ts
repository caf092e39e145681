import { describe, expect, it } from 'vitest';
import { currencyDigits, formatDate, formatDateTime, formatMinor as minor, formatMoney as money } from './format';

// Intl separates with no-break spaces; compare with plain ones.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const formatMoney = (...a: Parameters<typeof money>) => plain(money(...a));
const formatMinor = (...a: Parameters<typeof minor>) => plain(minor(...a));

describe('money formatting (Intl, store currency)', () => {
  it('formats amounts as numbers or exact decimal strings', () => {
    expect(formatMoney(1234.5, 'USD', 'en-US')).toBe('$1,234.50');
    expect(formatMoney('1234.50', 'EUR', 'de-DE')).toBe('1.234,50 €');
    expect(formatMoney('0.1', 'USD', 'en-US')).toBe('$0.10');
    expect(formatMoney(-12, 'TRY', 'en-US')).toBe('-TRY 12.00');
    expect(formatMoney('n/a', 'USD', 'en-US')).toBe('n/a');
    expect(formatMoney(Number.NaN, 'USD', 'en-US')).toBe('—');
  });

  it('minor units use the currency’s digits and no float arithmetic', () => {
    expect(currencyDigits('USD')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(formatMinor(123456, 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatMinor(1234, 'JPY', 'en-US')).toBe('¥1,234');
    expect(formatMinor(1234567, 'KWD', 'en-US')).toBe('KWD 1,234.567');
    expect(formatMinor(-5, 'USD', 'en-US')).toBe('-$0.05');
    expect(formatMinor(0, 'USD', 'en-US')).toBe('$0.00');
    // Beyond 2^53: exact (a float would print ...409.92 or ...409.94).
    expect(formatMinor(9007199254740993n, 'USD', 'en-US')).toBe('$90,071,992,547,409.93');
  });

  it('dates in the store time zone; bare calendar dates never shift', () => {
    expect(plain(formatDateTime('2026-03-29T22:30:00Z', 'Europe/Berlin', 'en-GB'))).toBe('30 Mar 2026, 00:30');
    expect(plain(formatDateTime('2026-03-29T22:30:00Z', 'UTC', 'en-GB'))).toBe('29 Mar 2026, 22:30');
    expect(plain(formatDate('2026-03-29T22:30:00Z', 'Europe/Berlin', 'en-GB'))).toBe('30 Mar 2026');
    expect(plain(formatDate('2026-03-29', 'Pacific/Honolulu', 'en-GB'))).toBe('29 Mar 2026');
    expect(plain(formatDate(null, 'UTC'))).toBe('—');
  });
});
