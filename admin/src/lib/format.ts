// Money and dates with Intl, in the store's currency and time zone (from /auth/me), in the browser's locale.

const numberFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string, locale?: string): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: 'currency', currency });
    numberFormats.set(key, f);
  }
  return f;
}

/** Digits after the decimal point of a currency (JPY 0, USD 2, KWD 3). */
export function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * An amount in currency units: a number as the API sends it, or a decimal string (formatted exactly, no float
 * rounding: Intl takes decimal strings).
 */
export function formatMoney(amount: number | string, currency: string, locale?: string): string {
  const f = moneyFormat(currency, locale);
  if (typeof amount === 'string') {
    if (!/^-?\d+(\.\d+)?$/.test(amount.trim())) return amount;
    return f.format(amount.trim() as `${number}`);
  }
  return Number.isFinite(amount) ? f.format(amount) : '—';
}

/** An integer amount in minor units (cents) as a decimal string, then formatted: no float arithmetic. */
export function formatMinor(minor: number | bigint, currency: string, locale?: string): string {
  const digits = currencyDigits(currency);
  const neg = minor < 0;
  const s = (neg ? -BigInt(minor) : BigInt(minor)).toString().padStart(digits + 1, '0');
  const dec = digits === 0 ? s : `${s.slice(0, -digits)}.${s.slice(-digits)}`;
  return formatMoney((neg ? '-' : '') + dec, currency, locale);
}

export function formatDate(iso: string | Date | null | undefined, timeZone: string, locale?: string): string {
  if (!iso) return '—';
  const d = typeof iso === 'string' ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T12:00:00Z` : iso) : iso;
  if (Number.isNaN(d.getTime())) return String(iso);
  // A bare calendar date is that date everywhere: format it in UTC (noon), not shifted into the zone.
  const zone = typeof iso === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? 'UTC' : timeZone;
  return new Intl.DateTimeFormat(locale, { timeZone: zone, dateStyle: 'medium' }).format(d);
}

export function formatDateTime(iso: string | Date | null | undefined, timeZone: string, locale?: string): string {
  if (!iso) return '—';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return String(iso);
  return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function formatNumber(n: number, locale?: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
