import { HttpErrors } from '../../platform/http/errors.js';
import { isObj } from './sanitise.js';
import { SOURCE_IDS, type Adjustment, type FxSettings, type RateInterval, type SourceId } from './types.js';

export const WIDGET_MAX = 5;
const INTERVALS: readonly RateInterval[] = ['manual', 'hourly', 'twicedaily', 'daily'];
const SIZES = ['small', 'medium', 'large'] as const;

export const INTERVAL_MS: Record<RateInterval, number | null> = {
  manual: null,
  hourly: 3_600_000,
  twicedaily: 43_200_000,
  daily: 86_400_000,
};

export function defaultSettings(): FxSettings {
  return {
    auto_detect: false,
    cache_compat: true,
    switcher: { show_flag: true, show_name: false, show_symbol: true, show_code: true, size: 'medium' },
    rate_update_interval: 'manual',
    rate_sources: ['exchangerate-api', 'ecb'],
    product_widget: { enabled: false, show_flags: true, currencies: [] },
  };
}

const bool = (v: unknown, fallback: boolean): boolean =>
  v === undefined || v === null ? fallback : v === true || v === 'true' || v === 1 || v === '1';

/** Fills every missing key of a stored settings object with its default (GET always returns the full object). */
export function withDefaults(stored: unknown): FxSettings {
  return mergeSettings(defaultSettings(), isObj(stored) ? stored : {}, []);
}

/**
 * Merges the submitted top-level keys over the current settings; unknown keys are ignored, invalid values are
 * corrected (reported in `adjustments` where the design says so); unknown rate sources → 400.
 */
export function mergeSettings(
  current: FxSettings,
  input: Record<string, unknown>,
  adjustments: Adjustment[],
): FxSettings {
  const d = defaultSettings();
  const out: FxSettings = structuredClone(current);
  if ('auto_detect' in input) out.auto_detect = bool(input.auto_detect, d.auto_detect);
  if ('cache_compat' in input) out.cache_compat = bool(input.cache_compat, d.cache_compat);
  if ('switcher' in input) {
    const s = isObj(input.switcher) ? input.switcher : {};
    const size = typeof s.size === 'string' ? s.size.trim().toLowerCase() : '';
    out.switcher = {
      show_flag: bool(s.show_flag, d.switcher.show_flag),
      show_name: bool(s.show_name, d.switcher.show_name),
      show_symbol: bool(s.show_symbol, d.switcher.show_symbol),
      show_code: bool(s.show_code, d.switcher.show_code),
      size: (SIZES as readonly string[]).includes(size) ? (size as FxSettings['switcher']['size']) : 'medium',
    };
  }
  if ('rate_update_interval' in input) {
    const v = input.rate_update_interval;
    out.rate_update_interval =
      typeof v === 'string' && (INTERVALS as readonly string[]).includes(v) ? (v as RateInterval) : 'manual';
  }
  if ('rate_sources' in input) {
    const v = input.rate_sources;
    if (!Array.isArray(v) || v.length === 0)
      throw HttpErrors.badRequest('rate_sources must be a non-empty list of source ids.', {
        params: { rate_sources: `Allowed: ${SOURCE_IDS.join(', ')}.` },
      });
    const unknown = v.filter((s) => typeof s !== 'string' || !(SOURCE_IDS as readonly string[]).includes(s));
    if (unknown.length > 0) {
      throw HttpErrors.badRequest(`Unknown rate source(s): ${unknown.map((u) => JSON.stringify(u)).join(', ')}.`, {
        params: { rate_sources: `Allowed: ${SOURCE_IDS.join(', ')}.` },
      });
    }
    out.rate_sources = [...new Set(v as SourceId[])];
  }
  if ('product_widget' in input) {
    const w = isObj(input.product_widget) ? input.product_widget : {};
    const list = Array.isArray(w.currencies) ? w.currencies : [];
    let codes = [
      ...new Set(
        list.filter((c): c is string => typeof c === 'string' && /^[A-Z]{3}$/.test(c.trim())).map((c) => c.trim()),
      ),
    ];
    if (codes.length > WIDGET_MAX) {
      codes = codes.slice(0, WIDGET_MAX);
      adjustments.push({
        code: '',
        field: 'product_widget.currencies',
        reason: 'widget_currencies_too_many',
        value: WIDGET_MAX,
      });
    }
    out.product_widget = {
      enabled: bool(w.enabled, d.product_widget.enabled),
      show_flags: bool(w.show_flags, d.product_widget.show_flags),
      currencies: codes,
    };
  }
  return out;
}
