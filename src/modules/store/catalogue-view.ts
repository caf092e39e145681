import { perPlatform } from '../../platform/per-platform.js';
import type { Platform } from '../../platform/context.js';
import type { CurrencyFormat, PricingCurrency } from './currency-port.js';
import { renderPriceHtml } from './price-html.js';
import { baseFormat, isSaleActive, priceRange, priceRecord } from './pricing.js';
import { isPublicRecord, pricesParent } from './public.js';
import { loadAll } from './repo.js';
import { CATALOGUE_TOPIC } from './service.js';
import type { ProductRecord } from './types.js';

/**
 * In-memory view of the catalogue for the currency service's hot path (POST /convert).
 *
 * Usage: `const view = catalogueView(platform); await view.load();` once per request (a resolved no-op
 * when the view is already loaded: one DB query per catalogue change, none per call), then synchronous
 * `view.priceHtml(id, currency)` lookups. Every catalogue write publishes `store.catalogue` on the platform
 * bus (so every node drops its view); the next `load()` reloads. Sale windows are evaluated at call time.
 *
 * Rendered HTML is cached per (currency object, id, sale state). The cache is keyed by the identity of the
 * `PricingCurrency` object (base: of the base CurrencyFormat object), so the currency service should hand
 * out a new object whenever rates, fees or formats change — old entries then go away with the old object.
 */
export interface CatalogueView {
  /** Loads the catalogue if it is not loaded yet (one query); cheap when already loaded. */
  load(): Promise<void>;
  /**
   * Price HTML of a PUBLIC product or variation with a non-empty price, in `currency` (base when null),
   * sale windows evaluated at `now`; null otherwise (unknown, not public, no price, or view not loaded).
   */
  priceHtml(id: number, currency: PricingCurrency | null, now?: Date): string | null;
  /** The same HTML as a JSON string literal (escaped once and cached: /convert writes it straight out). */
  priceJson(id: number, currency: PricingCurrency | null, now?: Date): string | null;
  /** Drops the loaded data (next load() reloads). */
  invalidate(): void;
  /**
   * Identity of the loaded catalogue: a new object after every reload, null while none is loaded. An answer built
   * from this view holds for as long as `loaded()` returns the same object (and no sale window opens or closes).
   */
  loaded(): object | null;
  /**
   * The first instant (ms since the epoch) after `now` at which a sale window that prices one of `ids` opens or
   * closes (for a variable product: the windows of its priced variations), i.e. when their price HTML may change
   * with time alone; Infinity when none lies ahead. Call after load().
   */
  nextSaleChange(ids: Iterable<number>, now: number): number;
}

/** Sale facts that do not depend on time, worked out once per load (decimal comparison off the hot path). */
interface SaleWindow {
  eligible: boolean;
  from: number;
  to: number;
}

interface State {
  byId: Map<number, ProductRecord>;
  sale: Map<number, SaleWindow>;
  /** Published variations of each product (the ones that price a variable product). */
  publicChildren: Map<number, ProductRecord[]>;
  /** Per currency object: `${id}:${saleState}` → [html, html as a JSON literal], or null (no price). */
  cache: WeakMap<object, Map<string, readonly [string, string] | null>>;
}

function buildState(records: ProductRecord[]): State {
  const byId = new Map<number, ProductRecord>();
  const sale = new Map<number, SaleWindow>();
  const publicChildren = new Map<number, ProductRecord[]>();
  for (const r of records) {
    byId.set(r.id, r);
    // isSaleActive at the epoch with the window removed tells whether sale < regular at all.
    sale.set(r.id, {
      eligible: isSaleActive({ ...r, saleFrom: null, saleTo: null }, new Date(0)),
      from: r.saleFrom?.getTime() ?? -Infinity,
      to: r.saleTo?.getTime() ?? Infinity,
    });
    if (r.parentId !== null && pricesParent(r)) {
      const list = publicChildren.get(r.parentId) ?? [];
      list.push(r);
      publicChildren.set(r.parentId, list);
    }
  }
  return { byId, sale, publicChildren, cache: new WeakMap() };
}

class View implements CatalogueView {
  private state: State | null = null;
  private loading: Promise<void> | null = null;
  private generation = 0;

  constructor(private readonly platform: Platform) {}

  load(): Promise<void> {
    if (this.state) return Promise.resolve();
    if (!this.loading) {
      const gen = this.generation;
      const p = loadAll(this.platform.db)
        .then((records) => {
          if (gen === this.generation) this.state = buildState(records);
        })
        .finally(() => {
          if (this.loading === p) this.loading = null;
        });
      this.loading = p;
    }
    return this.loading.then(() => (this.state ? undefined : this.load()));
  }

  invalidate(): void {
    this.generation += 1;
    this.state = null;
    this.loading = null;
  }

  loaded(): object | null {
    return this.state;
  }

  nextSaleChange(ids: Iterable<number>, now: number): number {
    const s = this.state;
    let next = Infinity;
    if (!s) return next;
    const consider = (rec: ProductRecord) => {
      const w = s.sale.get(rec.id);
      if (w === undefined || !w.eligible) return;
      // on sale while from ≤ t ≤ to: it starts at `from` and ends 1 ms after `to`
      if (w.from > now && w.from < next) next = w.from;
      if (w.to + 1 > now && w.to + 1 < next) next = w.to + 1;
    };
    for (const id of ids) {
      const r = s.byId.get(id);
      if (!r) continue;
      if (r.type === 'variable') for (const kid of s.publicChildren.get(r.id) ?? []) consider(kid);
      else consider(r);
    }
    return next;
  }

  priceHtml(id: number, currency: PricingCurrency | null, now: Date = new Date()): string | null {
    return this.rendered(id, currency, now)?.[0] ?? null;
  }

  priceJson(id: number, currency: PricingCurrency | null, now: Date = new Date()): string | null {
    return this.rendered(id, currency, now)?.[1] ?? null;
  }

  private rendered(id: number, currency: PricingCurrency | null, now: Date): readonly [string, string] | null {
    const s = this.state;
    if (!s) return null;
    const r = s.byId.get(id);
    if (!r) return null;
    if (!isPublicRecord(r, r.parentId !== null ? s.byId.get(r.parentId) : null)) return null;
    const fmt: CurrencyFormat = currency?.format ?? baseFormat(this.platform);
    const cacheOwner: object = currency ?? fmt;
    let cache = s.cache.get(cacheOwner);
    if (!cache) {
      cache = new Map();
      s.cache.set(cacheOwner, cache);
    }
    const kids = r.type === 'variable' ? (s.publicChildren.get(r.id) ?? []) : null;
    const t = now.getTime();
    let saleState = '';
    for (const rec of kids ?? [r]) {
      const w = s.sale.get(rec.id);
      saleState += w !== undefined && w.eligible && t >= w.from && t <= w.to ? '1' : '0';
    }
    const key = `${id}:${saleState}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const html = kids
      ? renderPriceHtml(priceRange(kids, now, currency), fmt)
      : renderPriceHtml(priceRecord(r, now, currency), fmt);
    const out = html === '' ? null : ([html, JSON.stringify(html)] as const);
    cache.set(key, out);
    return out;
  }
}

/** The platform's catalogue view (one per running app); subscribes to catalogue changes on first use. */
export const catalogueView: (platform: Platform) => CatalogueView = perPlatform((platform) => {
  const view = new View(platform);
  platform.bus.subscribe(CATALOGUE_TOPIC, () => view.invalidate());
  return view;
});
