/**
 * The storefront configuration object the page provides, either as `window.rovaFx` (e.g. from
 * `<script src="/assets/rova-fx/config.js">`) or as `<script type="application/json" id="rova-fx-config">`.
 * Documented field by field in docs/readme/storefront.md.
 */
export interface RovaFxCurrency {
  code: string;
  symbol: string;
  name: string;
  /** Emoji flag ("" when the code has no country). */
  flag: string;
}

export interface RovaFxSwitcherOptions {
  show_flag: boolean;
  show_name: boolean;
  show_symbol: boolean;
  show_code: boolean;
  size: 'small' | 'medium' | 'large';
}

export interface RovaFxWidgetOptions {
  enabled: boolean;
  show_flags: boolean;
  currencies: string[];
}

export interface RovaFxConfig {
  /** Absolute or root-relative URL of POST /convert. */
  endpoint: string;
  /** Store base currency (prices in the cached page are in it). */
  base: string;
  /** Base first, then the enabled currencies in the configured order: the client allow-list. */
  currencies: RovaFxCurrency[];
  /** The server's cap on product_ids per request. */
  batchSize: number;
  autoDetect: boolean;
  cookie: { name: string; days: number };
  urlParam: string;
  switcher: RovaFxSwitcherOptions;
  widget: RovaFxWidgetOptions;
}

declare global {
  interface Window {
    rovaFx?: Partial<RovaFxConfig>;
  }
}

const CODE = /^[A-Z]{3}$/;

/** Reads and checks the page's config; null when it is missing or incomplete (the scripts then do nothing). */
export function readConfig(): RovaFxConfig | null {
  let raw: unknown = window.rovaFx;
  if (!raw) {
    const el = document.getElementById('rova-fx-config');
    if (el?.textContent) {
      try {
        raw = JSON.parse(el.textContent);
      } catch {
        return null;
      }
    }
  }
  if (!raw || typeof raw !== 'object') return null;
  const c = raw as Partial<RovaFxConfig>;
  if (typeof c.endpoint !== 'string' || typeof c.base !== 'string' || !CODE.test(c.base)) return null;
  if (!Array.isArray(c.currencies) || typeof c.batchSize !== 'number' || !(c.batchSize >= 1)) return null;
  return {
    endpoint: c.endpoint,
    base: c.base,
    currencies: c.currencies.filter((x) => x && typeof x.code === 'string' && CODE.test(x.code)),
    batchSize: Math.floor(c.batchSize),
    autoDetect: c.autoDetect === true,
    cookie: { name: c.cookie?.name || 'rova_fx_currency', days: c.cookie?.days || 30 },
    urlParam: c.urlParam || 'currency',
    switcher: c.switcher ?? { show_flag: true, show_name: false, show_symbol: true, show_code: true, size: 'medium' },
    widget: c.widget ?? { enabled: false, show_flags: true, currencies: [] },
  };
}

/** Trimmed, upper-cased code when it is offered (a key of `currencies`), else null. */
export function offered(cfg: RovaFxConfig, value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toUpperCase();
  if (!CODE.test(v)) return null;
  return cfg.currencies.some((c) => c.code === v) || v === cfg.base ? v : null;
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The visitor cookie: path /, `days` days, SameSite=Lax, Secure on https (same attributes for every writer). */
export function writeCookie(cfg: RovaFxConfig, code: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${cfg.cookie.name}=${encodeURIComponent(code)}; path=/; max-age=${cfg.cookie.days * 86400}; SameSite=Lax${secure}`;
}

/** Switcher → converter: the visitor picked a currency (cookie already written). */
export const EVENT_CHANGED = 'rova-fx:currency-changed';
/** Converter → switcher: a batch came back in this currency. */
export const EVENT_RESOLVED = 'rova-fx:currency-resolved';
