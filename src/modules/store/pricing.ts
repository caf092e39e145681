import { Decimal } from 'decimal.js';
import type { Platform } from '../../platform/context.js';
import { currencyPort, type CurrencyFormat, type PricingCurrency } from './currency-port.js';
import { roundAmount, type RangePrice, type SinglePrice } from './price-html.js';
import type { PriceFacts } from './types.js';

/** The price rules: active sale, current price, variable ranges, conversion into a pricing currency. */

/** WooCommerce is_on_sale: a sale price below the regular price, inside the sale window (if any). */
export function isSaleActive(p: PriceFacts, now: Date): boolean {
  if (p.salePrice === '' || p.regularPrice === '') return false;
  if (!new Decimal(p.regularPrice).greaterThan(p.salePrice)) return false;
  const t = now.getTime();
  if (p.saleFrom && t < p.saleFrom.getTime()) return false;
  if (p.saleTo && t > p.saleTo.getTime()) return false;
  return true;
}

/** Current base price: the active sale price, else the regular price ("" = none). */
export function activePrice(p: PriceFacts, now: Date): string {
  return isSaleActive(p, now) ? p.salePrice : p.regularPrice;
}

/** Amounts of one record in the target currency (base values untouched when currency is null). */
export interface PricedRecord extends SinglePrice {
  sale: string;
}

export function priceRecord(p: PriceFacts, now: Date, currency: PricingCurrency | null): PricedRecord {
  const onSale = isSaleActive(p, now);
  const conv = (amount: string): string => {
    if (amount === '' || !currency) return amount;
    return roundAmount(currency.convert(amount, p.fixedPrices[currency.format.code]), currency.format.decimals);
  };
  const regular = conv(p.regularPrice);
  const sale = conv(p.salePrice);
  return { kind: 'single', price: onSale ? sale : regular, regular, sale, onSale };
}

/** A variable product's range over its public variations (those with a price). */
export function priceRange(children: readonly PriceFacts[], now: Date, currency: PricingCurrency | null): RangePrice {
  let min: PricedRecord | null = null;
  let max: PricedRecord | null = null;
  let minReg = '';
  let maxReg = '';
  let onSale = false;
  for (const c of children) {
    const r = priceRecord(c, now, currency);
    if (r.price === '') continue;
    onSale ||= r.onSale;
    if (!min || new Decimal(r.price).lessThan(min.price)) min = r;
    if (!max || new Decimal(r.price).greaterThan(max.price)) max = r;
    if (r.regular !== '') {
      if (minReg === '' || new Decimal(r.regular).lessThan(minReg)) minReg = r.regular;
      if (maxReg === '' || new Decimal(r.regular).greaterThan(maxReg)) maxReg = r.regular;
    }
  }
  return {
    kind: 'range',
    minPrice: min?.price ?? '',
    maxPrice: max?.price ?? '',
    minRegular: minReg,
    maxRegular: maxReg,
    onSale,
  };
}

const intlFormats = new Map<string, CurrencyFormat>();

/** Intl defaults for a currency: narrow symbol on the left, ISO minor-unit decimals, '.' and ','. */
export function intlFormat(code: string): CurrencyFormat {
  let f = intlFormats.get(code);
  if (!f) {
    const nf = new Intl.NumberFormat('en-US', { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' });
    const symbol = nf.formatToParts(1).find((x) => x.type === 'currency')?.value ?? code;
    f = {
      code,
      symbol,
      position: 'left',
      decimals: nf.resolvedOptions().maximumFractionDigits ?? 2,
      decimalSep: '.',
      thousandSep: ',',
    };
    intlFormats.set(code, f);
  }
  return f;
}

/** The base (store) currency's format: the currency port's, else Intl defaults for STORE_CURRENCY. */
export function baseFormat(platform: Platform): CurrencyFormat {
  return currencyPort(platform)?.base() ?? intlFormat(platform.storeCurrency.code);
}

/** `?currency=CODE` → the pricing currency when the currency service offers it (never the base), else null. */
export function requestedCurrency(platform: Platform, raw: unknown): PricingCurrency | null {
  if (typeof raw !== 'string') return null;
  const code = raw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return null;
  return currencyPort(platform)?.resolve(code) ?? null;
}
