import type { Platform } from '../../platform/context.js';

/**
 * The seam between the store catalogue and the currency service (rova-fx). The store renders price HTML
 * and reads prices; the currency service plugs in through `setCurrencyPort` at start. Without it the store
 * prices everything in STORE_CURRENCY with Intl defaults.
 *
 * Amounts are decimal strings ("19.90"); never binary floats.
 */
export type SymbolPosition = 'left' | 'right' | 'left_space' | 'right_space';

export interface CurrencyFormat {
  code: string;
  /** Raw symbol text (HTML-escaped by the renderer). */
  symbol: string;
  position: SymbolPosition;
  decimals: number;
  decimalSep: string;
  thousandSep: string;
}

/** Prices one product's amounts in a currency. */
export interface PricingCurrency {
  format: CurrencyFormat;
  /**
   * Converts a base-currency amount of a product (already decided: regular, sale or current price) into this
   * currency, applying rate, fee and rounding; `fixed` is the product's fixed price in this currency when it
   * has one (it then wins). Returns an unformatted decimal string (formatting applies decimals).
   */
  convert(amount: string, fixed: string | undefined): string;
}

export interface CurrencyPort {
  /** Format of the base (store) currency. */
  base(): CurrencyFormat;
  /**
   * A currency that may be used for pricing (enabled and usable, not the base), or null.
   * `code` is already trimmed and upper-cased.
   */
  resolve(code: string): PricingCurrency | null;
}

// One port per running app (tests run several apps in one process).
const ports = new WeakMap<Platform, CurrencyPort>();

export function setCurrencyPort(platform: Platform, p: CurrencyPort): void {
  ports.set(platform, p);
}

export function currencyPort(platform: Platform): CurrencyPort | null {
  return ports.get(platform) ?? null;
}
