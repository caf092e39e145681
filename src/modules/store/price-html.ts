import { Decimal } from 'decimal.js';
import type { CurrencyFormat } from './currency-port.js';

/**
 * WooCommerce price markup (wc_price, wc_format_sale_price, wc_format_price_range). Amounts are decimal
 * strings in the format's currency; decimals are applied here (half away from zero).
 */

const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/** Rounds a decimal string to `decimals` places, half away from zero ("" stays ""). */
export function roundAmount(amount: string, decimals: number): string {
  if (amount === '') return '';
  return new D(amount).toFixed(decimals, Decimal.ROUND_HALF_UP);
}

/** The number as WooCommerce prints it: absolute value, decimals, separators (escaped). */
function formatNumber(abs: Decimal, fmt: CurrencyFormat): string {
  const fixed = abs.toFixed(fmt.decimals, Decimal.ROUND_HALF_UP);
  const [int = '0', frac] = fixed.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '\u0000');
  const sepInt = escapeHtml(grouped).split('\u0000').join(escapeHtml(fmt.thousandSep));
  return frac !== undefined && fmt.decimals > 0 ? sepInt + escapeHtml(fmt.decimalSep) + frac : sepInt;
}

function place(symbol: string, num: string, fmt: CurrencyFormat): string {
  switch (fmt.position) {
    case 'right':
      return num + symbol;
    case 'left_space':
      return symbol + '&nbsp;' + num;
    case 'right_space':
      return num + '&nbsp;' + symbol;
    default:
      return symbol + num;
  }
}

function parts(amount: string, fmt: CurrencyFormat): { sign: string; num: string; symbol: string } {
  const d = new D(amount);
  const rounded = new D(d.abs().toFixed(fmt.decimals, Decimal.ROUND_HALF_UP));
  return {
    sign: d.isNegative() && !rounded.isZero() ? '-' : '',
    num: formatNumber(rounded, fmt),
    symbol: escapeHtml(fmt.symbol),
  };
}

/** One amount: `<span class="woocommerce-Price-amount amount"><bdi>…</bdi></span>`. */
export function amountHtml(amount: string, fmt: CurrencyFormat): string {
  const p = parts(amount, fmt);
  const sym = `<span class="woocommerce-Price-currencySymbol">${p.symbol}</span>`;
  return `<span class="woocommerce-Price-amount amount"><bdi>${p.sign}${place(sym, p.num, fmt)}</bdi></span>`;
}

/** The amount as screen-reader text (WooCommerce: esc_html(wp_strip_all_tags(wc_price(x)))). */
export function amountText(amount: string, fmt: CurrencyFormat): string {
  const p = parts(amount, fmt);
  return p.sign + place(p.symbol, p.num, fmt);
}

export function saleHtml(regular: string, sale: string, fmt: CurrencyFormat): string {
  return (
    `<del aria-hidden="true">${amountHtml(regular, fmt)}</del> ` +
    `<span class="screen-reader-text">Original price was: ${amountText(regular, fmt)}.</span>` +
    `<ins aria-hidden="true">${amountHtml(sale, fmt)}</ins>` +
    `<span class="screen-reader-text">Current price is: ${amountText(sale, fmt)}.</span>`
  );
}

export function rangeHtml(min: string, max: string, fmt: CurrencyFormat): string {
  return `${amountHtml(min, fmt)} &ndash; ${amountHtml(max, fmt)}`;
}

/** What a simple product or a variation shows. */
export interface SinglePrice {
  kind: 'single';
  price: string;
  regular: string;
  onSale: boolean;
}
/** What a variable product shows (over its public variations with a price). */
export interface RangePrice {
  kind: 'range';
  minPrice: string;
  maxPrice: string;
  minRegular: string;
  maxRegular: string;
  onSale: boolean;
}

function same(a: string, b: string, decimals: number): boolean {
  return roundAmount(a, decimals) === roundAmount(b, decimals);
}

/** The price HTML of a record ("" when it has no price). */
export function renderPriceHtml(p: SinglePrice | RangePrice, fmt: CurrencyFormat): string {
  if (p.kind === 'single') {
    if (p.price === '') return '';
    if (p.onSale && p.regular !== '' && !same(p.regular, p.price, fmt.decimals))
      return saleHtml(p.regular, p.price, fmt);
    return amountHtml(p.price, fmt);
  }
  if (p.minPrice === '') return '';
  if (!same(p.minPrice, p.maxPrice, fmt.decimals)) return rangeHtml(p.minPrice, p.maxPrice, fmt);
  if (
    p.onSale &&
    p.minRegular !== '' &&
    same(p.minRegular, p.maxRegular, fmt.decimals) &&
    !same(p.minRegular, p.minPrice, fmt.decimals)
  ) {
    return saleHtml(p.minRegular, p.minPrice, fmt);
  }
  return amountHtml(p.minPrice, fmt);
}
