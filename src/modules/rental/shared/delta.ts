import { Decimal } from 'decimal.js';

export interface Delta {
  format: 'pct' | 'abs' | 'neutral';
  value: number;
  direction: 'up' | 'down' | 'none';
}

/**
 * Month-over-month change of a KPI card: previous > 0 → percentage (rounded half away from zero);
 * previous 0 and current > 0 → the absolute current value; both 0 → neutral. A change that rounds to 0 % is `none`.
 * Money values are rounded to whole units before comparing (as the original dashboard did).
 */
export function delta(current: string | number, previous: string | number): Delta {
  const cur = new Decimal(current).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  const prev = new Decimal(previous).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  if (prev.gt(0)) {
    const pct = cur.minus(prev).div(prev).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
    return { format: 'pct', value: pct === 0 ? 0 : pct, direction: pct > 0 ? 'up' : pct < 0 ? 'down' : 'none' };
  }
  if (cur.gt(0)) return { format: 'abs', value: cur.toNumber(), direction: 'up' };
  return { format: 'neutral', value: 0, direction: 'none' };
}
