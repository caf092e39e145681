import { Decimal } from '../money.js';

/** Decimal places of a currency's minor unit (ISO 4217 via Intl; EUR/USD 2, JPY 0). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A decimal amount ("12.34", numeric text, number) → integer minor units, rounded half up. */
export function toMinor(v: Decimal.Value, currency: string): number {
  const d = minorDigits(currency);
  const n = new Decimal(v).mul(new Decimal(10).pow(d)).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  if (!n.abs().lte(Number.MAX_SAFE_INTEGER)) throw new RangeError('amount out of range');
  return n.toNumber();
}

/** Integer minor units → a JSON number with the currency's decimals. */
export function fromMinor(minor: number | string | bigint, currency: string): number {
  return new Decimal(String(minor)).div(new Decimal(10).pow(minorDigits(currency))).toNumber();
}

/** round(amount × percent / 100), half up, in minor units. */
export function percentOf(minor: number, percent: Decimal.Value): number {
  return new Decimal(minor).mul(percent).div(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Integer minor units → money text in the currency's own format ("€179.36", "¥1,200"), for texts people read (the
 * vendor audit log's notes): never a bare minor-unit number. Exact: Intl formats the decimal string.
 */
export function moneyText(minor: number | string | bigint, currency: string): string {
  let f = moneyFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    moneyFormats.set(currency, f);
  }
  return f.format(
    new Decimal(String(minor))
      .div(new Decimal(10).pow(minorDigits(currency)))
      .toFixed(minorDigits(currency)) as `${number}`,
  );
}

/** Integer minor units → the exact decimal text in the currency's unit ("-12.30", "1200" for JPY): for files. */
export function decimalText(minor: number | string | bigint, currency: string): string {
  const d = minorDigits(currency);
  return new Decimal(String(minor)).div(new Decimal(10).pow(d)).toFixed(d);
}
