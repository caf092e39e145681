import { HttpErrors } from '../../platform/http/errors.js';
import type { SymbolPosition } from '../store/index.js';
import { defaultSymbol, isIsoCurrency, minorUnits } from './iso.js';
import type { Adjustment, CurrencyRow, FeeType, RateType, RoundingType } from './types.js';

export const MAX_CURRENCY_ROWS = 500;
/** The shop's own number format (base currency). */
export const SHOP_DECIMAL_SEP = '.';
export const SHOP_THOUSAND_SEP = ',';

const POSITIONS: readonly SymbolPosition[] = ['left', 'right', 'left_space', 'right_space'];
/** A JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

type Adjust = (field: string, reason: string, value: unknown) => void;

function number(raw: unknown, field: string, adjust: Adjust, allowNegative: boolean): number {
  if (raw === undefined || raw === null) return 0;
  let v: number;
  if (typeof raw === 'number') v = raw;
  else if (typeof raw === 'string' && NUMERIC.test(raw.trim())) v = Number(raw.trim());
  else {
    adjust(field, 'not_a_number', 0);
    return 0;
  }
  if (!Number.isFinite(v)) {
    adjust(field, 'not_finite', 0);
    return 0;
  }
  if (!allowNegative && v < 0) {
    adjust(field, 'negative', 0);
    return 0;
  }
  return v === 0 ? 0 : v; // no -0
}

function key(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase() : '';
}

function bool(raw: unknown): boolean {
  return raw === true || raw === 1 || raw === '1' || raw === 'true';
}

function separator(raw: unknown, field: string, adjust: Adjust): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    adjust(field, 'separator_invalid', '');
    return '';
  }
  const s = String(raw);
  // eslint-disable-next-line no-control-regex
  const kept = Array.from(s.replace(/[\u0000-\u001f\u007f<>]/g, ''))[0] ?? '';
  if (s !== '' && kept === '') adjust(field, 'separator_invalid', '');
  else if (Array.from(s).length > 1) adjust(field, 'separator_truncated', kept);
  return kept;
}

function stripTags(s: string): string {
  return s.replace(/<[^>]*>?/g, '').trim();
}

/** Sanitises one row's fields (the code is already valid). Corrections are reported, never fatal. */
export function sanitiseRow(code: string, input: Record<string, unknown>, adjustments: Adjustment[]): CurrencyRow {
  const adjust: Adjust = (field, reason, value) => adjustments.push({ code, field, reason, value });
  const rate = isObj(input.rate) ? input.rate : {};
  const fee = isObj(input.fee) ? input.fee : {};
  const rounding = isObj(input.rounding) ? input.rounding : {};
  const format = isObj(input.format) ? input.format : {};

  const rateType: RateType = key(rate.type) === 'manual' ? 'manual' : 'auto';
  const rawUpdated = rate.updated_at;
  let updatedAt: number | null = null;
  if (rawUpdated !== undefined && rawUpdated !== null && rawUpdated !== '') {
    const n = Math.trunc(Math.abs(Number(rawUpdated)));
    updatedAt = Number.isFinite(n) ? n : null;
  }

  let feeType: FeeType = 'none';
  const ft = key(fee.type);
  if (ft === 'percentage' || ft === 'percent') feeType = 'percentage';
  else if (ft === 'fixed') feeType = 'fixed';
  let feeValue = number(fee.value, 'fee', adjust, true);
  if (feeType === 'none') feeValue = 0;

  const rt = key(rounding.type);
  const roundingType: RoundingType = rt === 'nearest' || rt === 'up' || rt === 'down' ? rt : 'disabled';

  // Decimals
  const fallbackDecimals = minorUnits(code);
  let decimals = fallbackDecimals;
  if (format.decimals !== undefined && format.decimals !== null && format.decimals !== '') {
    const raw = format.decimals;
    const n =
      typeof raw === 'number' ? raw : typeof raw === 'string' && NUMERIC.test(raw.trim()) ? Number(raw.trim()) : NaN;
    if (!Number.isFinite(n)) adjust('decimals', 'decimals_invalid', fallbackDecimals);
    else {
      const i = Math.trunc(n);
      decimals = Math.min(4, Math.max(0, i));
      if (decimals !== i) adjust('decimals', 'decimals_out_of_range', decimals);
    }
  }

  // Symbol and position
  let symbol = defaultSymbol(code);
  if (typeof format.symbol === 'string' && stripTags(format.symbol) !== '')
    symbol = stripTags(format.symbol).slice(0, 20);
  let position: SymbolPosition = 'left';
  if (format.position !== undefined && format.position !== null && format.position !== '') {
    const p = key(format.position);
    if ((POSITIONS as readonly string[]).includes(p)) position = p as SymbolPosition;
    else adjust('position', 'position_invalid', 'left');
  }

  // Separators (reference §2.2 rules 1–5)
  const decSubmitted = 'decimal_sep' in format;
  const thouSubmitted = 'thousand_sep' in format;
  let dec = decSubmitted ? separator(format.decimal_sep, 'decimal_sep', adjust) : '';
  let thou = thouSubmitted ? separator(format.thousand_sep, 'thousand_sep', adjust) : SHOP_THOUSAND_SEP;
  if (!decSubmitted || (dec === '' && decimals > 0)) {
    let fallback = SHOP_DECIMAL_SEP;
    if (thouSubmitted && fallback === thou) fallback = fallback === '.' ? ',' : '.';
    if (decSubmitted) adjust('decimal_sep', 'decimal_sep_empty', fallback);
    dec = fallback;
  }
  if (thou !== '' && thou === dec) {
    thou = '';
    if (thouSubmitted) adjust('thousand_sep', 'separators_equal', '');
  }

  return {
    code,
    enabled: bool(input.enabled),
    rate: { type: rateType, value: number(rate.value, 'rate', adjust, false), updated_at: updatedAt },
    fee: { type: feeType, value: feeValue },
    rounding: {
      type: roundingType,
      value: number(rounding.value, 'rounding_value', adjust, false),
      subtract: number(rounding.subtract, 'rounding_subtract', adjust, false),
    },
    format: { symbol, position, decimals, decimal_sep: dec, thousand_sep: thou },
  };
}

/**
 * Validates the structure of a currencies payload (400 on a missing/non-array list, more than 500 rows,
 * duplicate codes) and sanitises each row. Rows without a valid ISO code, and the base currency, are dropped.
 */
export function sanitiseCurrencies(body: unknown, base: string): { rows: CurrencyRow[]; adjustments: Adjustment[] } {
  if (!isObj(body) || !Array.isArray(body.currencies)) {
    throw HttpErrors.badRequest('Invalid currencies data: send {"currencies": [...]}.', {
      params: { currencies: 'currencies must be an array of currency rows.' },
    });
  }
  const list = body.currencies as unknown[];
  if (list.length > MAX_CURRENCY_ROWS) {
    throw HttpErrors.badRequest(`Too many currencies (at most ${MAX_CURRENCY_ROWS}).`, {
      params: { currencies: `At most ${MAX_CURRENCY_ROWS} rows.` },
    });
  }
  const seen = new Set<string>();
  const dupes = new Set<string>();
  const valid: [string, Record<string, unknown>][] = [];
  for (const item of list) {
    if (!isObj(item) || typeof item.code !== 'string') continue;
    const code = item.code;
    if (!isIsoCurrency(code) || code === base) continue;
    if (seen.has(code)) dupes.add(code);
    seen.add(code);
    valid.push([code, item]);
  }
  if (dupes.size > 0) {
    throw HttpErrors.badRequest(`Duplicate currency code(s): ${[...dupes].join(', ')}.`, {
      params: { currencies: 'Each currency code may appear once.' },
    });
  }
  const adjustments: Adjustment[] = [];
  const rows = valid.map(([code, item]) => sanitiseRow(code, item, adjustments));
  return { rows, adjustments };
}
