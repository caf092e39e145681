import { sanitiseCurrencies, isObj } from '../../fx/index.js';
import { withDefaults } from '../../fx/index.js';
import type { StorePriceFormat } from '../../fx/index.js';
import type { CurrencyRow, FxSettings } from '../../fx/index.js';
import type { Notes } from './report.js';
import { maybeUnserialize, type PhpValue } from './php-unserialize.js';

/** MHM Currency Switcher options (`mhmcs_settings`, `mhmcs_currencies`) → Rova's currency settings and rows (pure). */

export interface CurrencyImport {
  base: string | null;
  settings: FxSettings | null;
  rows: CurrencyRow[] | null;
}

/** An option value: PHP-serialized (update_option with an array), a JSON string, or nothing. */
function optionValue(raw: string | null, name: string, notes: Notes): unknown {
  if (raw === null || raw.trim() === '') return undefined;
  const php = maybeUnserialize(raw);
  if (!php.ok) {
    notes.warn(
      { id: name, record: `option ${name}`, key: name },
      'unreadable',
      `does not parse as PHP serialized data (${php.error}); not imported`,
    );
    return undefined;
  }
  let v: PhpValue | unknown = php.value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      notes.warn(
        { id: name, record: `option ${name}`, key: name },
        'unreadable',
        'neither PHP serialized data nor JSON; not imported',
      );
      return undefined;
    }
  }
  return v;
}

const LEGACY = [
  'provider',
  'provider_api_key',
  'cache_duration',
  'round_prices',
  'multilingual_mapping',
  'payment_restrictions',
  'delete_all_data',
];

export function mapCurrency(
  input: { wcCurrency: string | null; settings: string | null; currencies: string | null },
  notes: Notes,
): CurrencyImport {
  const optBase = (input.wcCurrency ?? '').trim().toUpperCase();
  const stored = optionValue(input.currencies, 'mhmcs_currencies', notes);
  const storedBase = isObj(stored) && typeof stored.base_currency === 'string' ? stored.base_currency : '';
  // the plugin reads the live woocommerce_currency first; its stored base_currency is only a fallback
  const base = /^[A-Z]{3}$/.test(optBase) ? optBase : /^[A-Z]{3}$/.test(storedBase) ? storedBase : null;
  let settings: FxSettings | null = null;
  const s = optionValue(input.settings, 'mhmcs_settings', notes);
  if (isObj(s)) {
    const dropped = Object.keys(s).filter((k) => LEGACY.includes(k));
    if (dropped.length)
      notes.warn(
        { id: 'mhmcs_settings', record: 'mhmcs_settings' },
        'unsupported',
        `legacy keys not carried over: ${dropped.join(', ')}`,
      );
    settings = withDefaults(s);
  } else if (s !== undefined)
    notes.warn({ id: 'mhmcs_settings' }, 'unreadable', 'mhmcs_settings is not an array; not imported');
  let rows: CurrencyRow[] | null = null;
  if (isObj(stored)) {
    const list = Array.isArray(stored.currencies)
      ? stored.currencies
      : isObj(stored.currencies)
        ? Object.values(stored.currencies)
        : [];
    const seen = new Set<string>();
    const keep: Record<string, unknown>[] = [];
    for (const item of list) {
      const code = isObj(item) ? item.code : undefined;
      if (!isObj(item) || typeof code !== 'string' || !/^[A-Z]{3}$/.test(code)) {
        notes.skip(
          isObj(item) ? String(item.code) : '?',
          'unknown',
          'not an upper-case ISO 4217 code (the plugin drops such rows too)',
        );
        continue;
      }
      if (code === base) {
        notes.skip(code, 'duplicate', 'the base currency is never a row');
        continue;
      }
      if (seen.has(code)) {
        notes.skip(code, 'duplicate', 'duplicate row (the plugin reads the first)');
        continue;
      }
      seen.add(code);
      keep.push(item);
    }
    const r = sanitiseCurrencies({ currencies: keep }, base ?? 'USD');
    for (const a of r.adjustments)
      notes.warn(
        { id: a.code, record: `currency ${a.code}`, key: a.field },
        'cleaned',
        `${a.field} ${a.reason} → ${JSON.stringify(a.value)}`,
      );
    rows = r.rows;
  } else if (stored !== undefined)
    notes.warn({ id: 'mhmcs_currencies' }, 'unreadable', 'mhmcs_currencies is not an object; not imported');
  return { base, settings, rows };
}

export interface PriceFormatOptions {
  position: string | null;
  decimalSep: string | null;
  thousandSep: string | null;
  decimals: string | null;
}

const POSITIONS = ['left', 'right', 'left_space', 'right_space'] as const;

/**
 * WooCommerce's price format (woocommerce_currency_pos, _price_decimal_sep, _price_thousand_sep, _price_num_decimals)
 * → the store's price format; null when the shop never set any of them (Rova keeps its defaults). Defaults for a
 * missing one are WooCommerce's: left, ".", ",", 2.
 */
export function mapPriceFormat(o: PriceFormatOptions, notes: Notes): StorePriceFormat | null {
  if (o.position === null && o.decimalSep === null && o.thousandSep === null && o.decimals === null) return null;
  const pos = (o.position ?? 'left').trim();
  const position = (POSITIONS as readonly string[]).includes(pos) ? (pos as StorePriceFormat['position']) : 'left';
  if (position !== pos)
    notes.value(
      'options',
      'woocommerce_currency_pos',
      'unknown',
      `"${pos.slice(0, 40)}" is not a currency position; read as left`,
    );
  const raw = (o.decimals ?? '2').trim();
  let decimals = /^\d{1,2}$/.test(raw) ? Number(raw) : 2;
  if (String(decimals) !== raw)
    notes.value(
      'options',
      'woocommerce_price_num_decimals',
      'unreadable',
      `"${raw.slice(0, 40)}" is not a number of decimals; read as 2`,
    );
  if (decimals > 8) decimals = 8;
  // WooCommerce reads the separators unescaped and unsanitised; a long one is no separator
  const sep = (v: string | null, fallback: string, key: string) => {
    if (v === null) return fallback;
    if (v.length > 8) {
      notes.value(
        'options',
        key,
        'too_long',
        `"${v.slice(0, 20)}…" is too long for a separator; read as "${fallback}"`,
      );
      return fallback;
    }
    return v;
  };
  return {
    position,
    decimals,
    decimal_sep: sep(o.decimalSep, '.', 'woocommerce_price_decimal_sep'),
    thousand_sep: sep(o.thousandSep, ',', 'woocommerce_price_thousand_sep'),
  };
}
