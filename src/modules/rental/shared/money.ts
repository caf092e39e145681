import { Decimal } from 'decimal.js';

export { money } from '../money.js';

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
