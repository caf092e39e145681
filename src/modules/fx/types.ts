import type { SymbolPosition } from '../store/index.js';

export type RateType = 'auto' | 'manual';
export type FeeType = 'none' | 'percentage' | 'fixed';
export type RoundingType = 'disabled' | 'nearest' | 'up' | 'down';

/** One configured currency (never the base). Numbers are JSON numbers; arithmetic goes through decimal.js. */
export interface CurrencyRow {
  code: string;
  enabled: boolean;
  rate: { type: RateType; value: number; updated_at: number | null };
  fee: { type: FeeType; value: number };
  rounding: { type: RoundingType; value: number; subtract: number };
  format: { symbol: string; position: SymbolPosition; decimals: number; decimal_sep: string; thousand_sep: string };
}

export interface Adjustment {
  code: string;
  field: string;
  reason: string;
  value: unknown;
}

export type RateInterval = 'manual' | 'hourly' | 'twicedaily' | 'daily';
export type SourceId = 'exchangerate-api' | 'ecb' | 'file';
export const SOURCE_IDS: readonly SourceId[] = ['exchangerate-api', 'ecb', 'file'];

export interface FxSettings {
  auto_detect: boolean;
  cache_compat: boolean;
  switcher: {
    show_flag: boolean;
    show_name: boolean;
    show_symbol: boolean;
    show_code: boolean;
    size: 'small' | 'medium' | 'large';
  };
  rate_update_interval: RateInterval;
  rate_sources: SourceId[];
  product_widget: { enabled: boolean; show_flags: boolean; currencies: string[] };
}

export interface LastSync {
  time: number;
  base: string;
  /** Where the rates came from; `file` = the bundled snapshot (its rates keep the snapshot's date). */
  source?: SourceId;
}

export interface NextSync {
  time: number;
  iso: string;
}
