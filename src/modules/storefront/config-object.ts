import type { Platform } from '../../platform/context.js';
import { MAX_PRODUCT_IDS } from '../fx/index.js';
import { currencyName } from '../fx/index.js';
import { fxRuntime } from '../fx/index.js';
import type { FxSettings } from '../fx/index.js';

/** The server's cap on `product_ids` per POST /convert (design §5): the client batches by it. */
export const CONVERT_BATCH_CAP = MAX_PRODUCT_IDS;
export const COOKIE_NAME = 'rova_fx_currency';
export const COOKIE_DAYS = 30;

/** What a storefront page gives the scripts (`window.rovaFx` or `<script type="application/json" id="rova-fx-config">`). */
export interface StorefrontConfig {
  endpoint: string;
  base: string;
  currencies: { code: string; symbol: string; name: string; flag: string }[];
  batchSize: number;
  autoDetect: boolean;
  cookie: { name: string; days: number };
  urlParam: string;
  switcher: FxSettings['switcher'];
  widget: FxSettings['product_widget'];
}

const regions = new Intl.DisplayNames(['en'], { type: 'region' });

/** Emoji flag of the country a currency belongs to (EUR → 🇪🇺); "" for supranational codes (XAF, XDR, …). */
export function currencyFlag(code: string): string {
  if (code === 'EUR') return '\u{1F1EA}\u{1F1FA}';
  if (code.startsWith('X')) return '';
  const cc = code.slice(0, 2);
  let known = false;
  try {
    known = regions.of(cc) !== cc;
  } catch {
    known = false;
  }
  if (!known) return '';
  return String.fromCodePoint(...[...cc].map((ch) => 0x1f1e6 + ch.charCodeAt(0) - 65));
}

/**
 * The config object from the current settings: base first, then the enabled and usable currencies in their
 * configured order (the client's allow-list, and the switcher's options).
 */
export function storefrontConfig(platform: Platform): StorefrontConfig {
  const snap = fxRuntime(platform).snapshot;
  const currencies = [
    { code: snap.base, symbol: snap.baseFormat.symbol, name: currencyName(snap.base), flag: currencyFlag(snap.base) },
  ];
  for (const row of snap.rows) {
    const offered = snap.offered.get(row.code);
    if (!offered) continue;
    currencies.push({
      code: row.code,
      symbol: offered.format.symbol,
      name: currencyName(row.code),
      flag: currencyFlag(row.code),
    });
  }
  const offeredCodes = new Set(currencies.map((c) => c.code));
  return {
    endpoint: `${platform.config.restRoot}/rova-fx/v1/convert`,
    base: snap.base,
    currencies,
    batchSize: CONVERT_BATCH_CAP,
    autoDetect: snap.settings.auto_detect,
    cookie: { name: COOKIE_NAME, days: COOKIE_DAYS },
    urlParam: 'currency',
    switcher: { ...snap.settings.switcher },
    widget: {
      enabled: snap.settings.product_widget.enabled,
      show_flags: snap.settings.product_widget.show_flags,
      currencies: snap.settings.product_widget.currencies
        .filter((c) => c !== snap.base && offeredCodes.has(c))
        .slice(0, 5),
    },
  };
}

/** JSON safe inside a `<script>` element (no `</script>`, no HTML comment openers, no U+2028/9 surprises). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * GET /assets/rova-fx/config.js: sets `window.rovaFx`; fields the page set before (e.g. an absolute
 * `endpoint` for a storefront on another origin) win over the server's.
 */
export function configScript(cfg: StorefrontConfig): string {
  return `window.rovaFx=Object.assign(${scriptSafeJson(cfg)},window.rovaFx||{});\n`;
}

/** Template helper: the inline JSON config element (what the demo shop embeds). */
export function configElement(cfg: StorefrontConfig): string {
  return `<script type="application/json" id="rova-fx-config">${scriptSafeJson(cfg)}</script>`;
}
