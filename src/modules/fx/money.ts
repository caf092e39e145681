import { Decimal } from 'decimal.js';
import type { CurrencyFormat } from '../store/index.js';
import type { CurrencyRow } from './types.js';

/** Decimal from a JSON number or decimal string (exact for the digits written). */
export const dec = (v: number | string): Decimal => new Decimal(typeof v === 'number' ? String(v) : v);

export function rawRate(row: CurrencyRow): Decimal {
  return dec(row.rate.value);
}

/** percentage → raw × (1 + fee/100); fixed → raw + fee; none → raw. */
export function effectiveRate(row: CurrencyRow): Decimal {
  const raw = rawRate(row);
  const fee = dec(row.fee.value);
  if (row.fee.type === 'percentage') return raw.times(fee.dividedBy(100).plus(1));
  if (row.fee.type === 'fixed') return raw.plus(fee);
  return raw;
}

/** Usable: raw > 0 and effective > 0 (the base currency is always usable; not a row). */
export function isUsable(row: CurrencyRow): boolean {
  return rawRate(row).gt(0) && effectiveRate(row).gt(0);
}

/**
 * Converts a base amount into the row's currency (design §4): amount ≤ 0 or unusable → unchanged;
 * amount × effective; then rounding to the step minus `subtract`, unless that makes it ≤ 0.
 */
export function convertAmount(amount: Decimal, row: CurrencyRow): Decimal {
  if (amount.lte(0) || !isUsable(row)) return amount;
  const converted = amount.times(effectiveRate(row));
  const step = dec(row.rounding.value);
  if (row.rounding.type === 'disabled' || step.lte(0)) return converted;
  const q = converted.dividedBy(step);
  const mode =
    row.rounding.type === 'up'
      ? Decimal.ROUND_CEIL
      : row.rounding.type === 'down'
        ? Decimal.ROUND_FLOOR
        : Decimal.ROUND_HALF_UP;
  const rounded = q.toDecimalPlaces(0, mode).times(step).minus(dec(row.rounding.subtract));
  return rounded.lte(0) ? converted : rounded;
}

export function rowFormat(row: CurrencyRow): CurrencyFormat {
  return {
    code: row.code,
    symbol: row.format.symbol,
    position: row.format.position,
    decimals: row.format.decimals,
    decimalSep: row.format.decimal_sep,
    thousandSep: row.format.thousand_sep,
  };
}
