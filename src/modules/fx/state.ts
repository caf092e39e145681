import { perPlatform } from '../../platform/per-platform.js';
import { reportCache } from '../../platform/cache-sizes.js';
import { Decimal } from 'decimal.js';
import type { Platform } from '../../platform/context.js';
import { OPT_STORE_CURRENCY } from '../../platform/store-currency.js';
import type { CurrencyFormat, CurrencyPort, PricingCurrency } from '../store/index.js';
import { intlFormat } from '../store/index.js';
import { ConvertAnswers } from './convert-cache.js';
import { convertAmount, isUsable, rowFormat } from './money.js';
import { loadCurrencies, readOptions } from './repo.js';
import type { SourceConfig } from './rates/sources.js';
import { readFxEnv } from './env.js';
import { withDefaults } from './settings.js';
import type { CurrencyRow, FxSettings, LastSync } from './types.js';

export const OPT_SETTINGS = 'rova_fx_settings';
/** The store's base currency: the store currency the platform keeps (src/platform/store-currency.ts). */
export const OPT_BASE = OPT_STORE_CURRENCY;
export const OPT_LAST_SYNC = 'rova_fx_last_sync';
/** The shop's own price format for its base currency (WooCommerce's currency position, separators, decimals), when set. */
export const OPT_PRICE_FORMAT = 'store_price_format';

export interface StorePriceFormat {
  position: CurrencyFormat['position'];
  decimals: number;
  decimal_sep: string;
  thousand_sep: string;
}
export const TOPIC = 'rova_fx';

/** Everything the hot paths need, immutable once built. */
export interface FxSnapshot {
  base: string;
  baseFormat: CurrencyFormat;
  settings: FxSettings;
  rows: CurrencyRow[];
  byCode: ReadonlyMap<string, CurrencyRow>;
  /** Enabled and usable currencies (never the base), ready for pricing. */
  offered: ReadonlyMap<string, PricingCurrency>;
  lastSync: LastSync | null;
}

import type { ConvertLimit } from './env.js';
export type { ConvertLimit };

/** The base currency is never a row: its format is the shop's price format when one is set, else the Intl default. */
export function baseFormat(code: string, shop?: StorePriceFormat | null): CurrencyFormat {
  const intl = intlFormat(code);
  if (!shop) return intl;
  return {
    ...intl,
    position: shop.position,
    decimals: shop.decimals,
    decimalSep: shop.decimal_sep,
    thousandSep: shop.thousand_sep,
  };
}

const MEMO_LIMIT = 10_000;

/**
 * The pricing view of one currency row. Catalogues repeat the same few prices on every page, so each converted
 * amount is kept (bounded) for the life of this view; any change to the currencies builds a new snapshot and view.
 */
export function pricingFor(row: CurrencyRow): PricingCurrency {
  const memo = new Map<string, string>();
  return {
    format: rowFormat(row),
    convert(amount: string, fixed: string | undefined): string {
      if (fixed !== undefined && fixed.trim() !== '') return fixed.trim();
      const known = memo.get(amount);
      if (known !== undefined) return known;
      let d: Decimal;
      try {
        d = new Decimal(amount);
      } catch {
        return amount;
      }
      if (!d.isFinite()) return amount;
      const converted = convertAmount(d, row).toFixed();
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(amount, converted);
      return converted;
    },
  };
}

export function buildSnapshot(
  base: string,
  settings: FxSettings,
  rows: CurrencyRow[],
  lastSync: LastSync | null,
  shopFormat: StorePriceFormat | null = null,
): FxSnapshot {
  const visible = rows.filter((r) => r.code !== base);
  const offered = new Map<string, PricingCurrency>();
  for (const r of visible) if (r.enabled && isUsable(r)) offered.set(r.code, pricingFor(r));
  return {
    base,
    baseFormat: baseFormat(base, shopFormat),
    settings,
    rows: visible,
    byCode: new Map(visible.map((r) => [r.code, r])),
    offered,
    lastSync,
  };
}

/** Per-app runtime of the currency service: the in-memory view and the configuration read at start. */
export class FxRuntime implements CurrencyPort {
  snapshot: FxSnapshot;
  readonly convertLimit: ConvertLimit;
  readonly sources: SourceConfig;
  readonly geoHeaders: string[];
  /** Finished POST /convert answers, each valid for the snapshot and catalogue it was built from (convert-cache.ts). */
  readonly answers = new ConvertAnswers();
  private gen = 0;
  private applied = 0;

  constructor(readonly platform: Platform) {
    const cfg = platform.config;
    this.snapshot = buildSnapshot(platform.storeCurrency.code, withDefaults(undefined), [], null);
    const env = readFxEnv(cfg);
    this.convertLimit = env.convertLimit;
    this.sources = env.sources;
    this.geoHeaders = env.geoHeaders;
    reportCache(platform, 'convert_answers', () => ({
      entries: this.answers.size,
      bytes: this.answers.bytes,
      maxEntries: this.answers.maxEntries,
      maxBytes: this.answers.maxBytes,
    }));
  }

  /** Reloads the view from the database; the newest reload wins. */
  async refresh(): Promise<void> {
    const gen = ++this.gen;
    const { db } = this.platform;
    const [opts, rows] = await Promise.all([
      readOptions(db, [OPT_BASE, OPT_SETTINGS, OPT_LAST_SYNC, OPT_PRICE_FORMAT]),
      loadCurrencies(db),
    ]);
    const base = opts.get(OPT_BASE);
    const lastSync = (opts.get(OPT_LAST_SYNC) as LastSync | undefined) ?? null;
    const snap = buildSnapshot(
      typeof base === 'string' ? base : this.platform.storeCurrency.code,
      withDefaults(opts.get(OPT_SETTINGS)),
      rows,
      lastSync,
      (opts.get(OPT_PRICE_FORMAT) as StorePriceFormat | undefined) ?? null,
    );
    if (gen >= this.applied) {
      this.applied = gen;
      this.snapshot = snap;
    }
  }

  /** Announces a change to every node (they reload) and reloads here before returning. */
  async changed(): Promise<void> {
    await this.platform.bus.publish(TOPIC, 'changed');
    await this.refresh();
  }

  // CurrencyPort
  base(): CurrencyFormat {
    return this.snapshot.baseFormat;
  }

  resolve(code: string): PricingCurrency | null {
    return this.snapshot.offered.get(code) ?? null;
  }
}

export const fxRuntime = perPlatform((platform) => new FxRuntime(platform));
