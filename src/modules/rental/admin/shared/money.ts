import { Decimal } from 'decimal.js';

/** A PostgreSQL numeric (text) or number → JSON number with 2 decimals, rounded half up in decimal arithmetic. */
export function money(v: string | number | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0;
  return Number(new Decimal(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
}

/** part / whole × 100 with `dp` decimals (0 when whole is 0). */
export function percent(part: string | number, whole: string | number, dp = 2): number {
  const w = new Decimal(whole);
  if (w.isZero()) return 0;
  return Number(new Decimal(part).div(w).times(100).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP).toFixed(dp));
}

/** a / b with `dp` decimals (0 when b is 0). */
export function ratio(a: string | number, b: string | number, dp = 2): number {
  const d = new Decimal(b);
  if (d.isZero()) return 0;
  return Number(new Decimal(a).div(d).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP).toFixed(dp));
}
