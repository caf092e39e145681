import type { Platform } from '../../../platform/context.js';
import { currencyPort } from '../../store/index.js';
import { Decimal, money } from '../money.js';

/** An enabled display currency of the currency service: its rate, fee and rounding rules and its format. */
export type DisplayCurrency = NonNullable<ReturnType<NonNullable<ReturnType<typeof currencyPort>>['resolve']>>;

/**
 * The display currency a visitor asked for (`currency` of search and check), or null for the store's own (or one the
 * currency service does not offer): prices are then shown as they are.
 */
export function displayCurrency(p: Platform, wanted: string | undefined): DisplayCurrency | null {
  const code = wanted?.trim().toUpperCase();
  if (!code || code === p.storeCurrency.code) return null;
  return currencyPort(p)?.resolve(code) ?? null;
}

const shownMemo = new WeakMap<DisplayCurrency, Map<number, number>>();

/**
 * A store amount as /rova-fx/v1/convert shows it in `conv`, so search cards and the check's total agree to the cent
 * (kept per currency view: prices repeat across searches).
 */
export function shownIn(conv: DisplayCurrency, n: number): number {
  let memo = shownMemo.get(conv);
  if (!memo) shownMemo.set(conv, (memo = new Map()));
  let v = memo.get(n);
  if (v === undefined) {
    // rate, fee and rounding rules, then the currency's decimals (half away from zero)
    v = new Decimal(conv.convert(money(n).toFixed(2), undefined))
      .toDecimalPlaces(conv.format.decimals, Decimal.ROUND_HALF_UP)
      .toNumber();
    if (memo.size >= 10_000) memo.clear();
    memo.set(n, v);
  }
  return v;
}
