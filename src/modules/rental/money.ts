import { Decimal } from 'decimal.js';

export { Decimal };

/** Rounds to cents (half up) and returns a JSON number with at most 2 decimals; null/'' (no amount) → 0. */
export function money(v: Decimal.Value | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0;
  return new Decimal(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();
}

export function cents(v: Decimal.Value): Decimal {
  return new Decimal(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** PG numeric text (or null) → Decimal. */
export function dec(v: unknown, fallback = '0'): Decimal {
  if (v === null || v === undefined || v === '') return new Decimal(fallback);
  return new Decimal(String(v));
}
