import type { CurrencyFormat, PricingCurrency } from './currency-port.js';
import { gmtIso, localIso } from './dates.js';
import { renderPriceHtml } from './price-html.js';
import { priceRange, priceRecord } from './pricing.js';
import { pricesParent } from './public.js';
import { slugify } from './slug.js';
import { stockWire } from './stock.js';
import type { ProductRecord } from './types.js';

/** Explicit mapping of catalogue records to the WooCommerce v3 wire shape (allow-list). */

export interface WireContext {
  now: Date;
  tz: string;
  baseFormat: CurrencyFormat;
  currency: PricingCurrency | null;
  /** Variations of the variable products being serialised, by parent id. */
  children: Map<number, ProductRecord[]>;
  /** Parents of the variations being serialised (their permalinks start from the parent's). */
  parents: Map<number, ProductRecord>;
}

/**
 * The permalink's path, WordPress' default product structure (`/product/<slug>/`; a variation: its parent's with
 * its attribute choices as `attribute_<name>=<option>`). The route puts the store URL (or its own origin) in front.
 */
function permalinkPath(r: ProductRecord, ctx: WireContext): string {
  if (r.type !== 'variation') return `/product/${r.slug}/`;
  const parent = r.parentId !== null ? ctx.parents.get(r.parentId) : undefined;
  const q = r.attributes
    .filter((a) => a.option)
    .map(
      (a) =>
        `attribute_${a.id > 0 ? 'pa_' : ''}${slugify(a.name)}=${encodeURIComponent(a.id > 0 ? (a.slug ?? slugify(a.option!)) : a.option!)}`,
    )
    .join('&');
  return `/product/${parent?.slug ?? r.slug}/${q ? `?${q}` : ''}`;
}

export type Wire = Record<string, unknown>;

function dates(r: ProductRecord, tz: string): Wire {
  const d = (v: Date | null) => (v ? localIso(v, tz) : null);
  const g = (v: Date | null) => (v ? gmtIso(v) : null);
  return {
    date_created: localIso(r.dateCreated, tz),
    date_created_gmt: gmtIso(r.dateCreated),
    date_modified: localIso(r.dateModified, tz),
    date_modified_gmt: gmtIso(r.dateModified),
    date_on_sale_from: d(r.saleFrom),
    date_on_sale_from_gmt: g(r.saleFrom),
    date_on_sale_to: d(r.saleTo),
    date_on_sale_to_gmt: g(r.saleTo),
  };
}

function prices(r: ProductRecord, ctx: WireContext): Wire {
  const fmt = ctx.currency?.format ?? ctx.baseFormat;
  let out: Wire;
  if (r.type === 'variable') {
    const kids = (ctx.children.get(r.id) ?? []).filter(pricesParent);
    const range = priceRange(kids, ctx.now, ctx.currency);
    out = {
      price: range.minPrice,
      regular_price: '',
      sale_price: '',
      on_sale: range.onSale,
      price_html: renderPriceHtml(range, fmt),
    };
  } else {
    const p = priceRecord(r, ctx.now, ctx.currency);
    out = {
      price: p.price,
      regular_price: p.regular,
      sale_price: p.sale,
      on_sale: p.onSale,
      price_html: renderPriceHtml(p, fmt),
    };
  }
  out.purchasable = out.price !== '';
  if (ctx.currency) out.currency_code = ctx.currency.format.code;
  return out;
}

function common(r: ProductRecord, ctx: WireContext): Wire {
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    permalink: permalinkPath(r, ctx),
    type: r.type,
    status: r.status,
    password: r.password,
    description: r.description,
    short_description: r.shortDescription,
    sku: r.sku,
    ...dates(r, ctx.tz),
    ...prices(r, ctx),
    ...stockWire(r),
    parent_id: r.parentId ?? 0,
    menu_order: r.menuOrder,
    attributes: r.attributes.map(({ slug: _slug, ...a }) => a),
    rova_fixed_prices: r.fixedPrices,
  };
}

export function productWire(r: ProductRecord, ctx: WireContext): Wire {
  return {
    ...common(r, ctx),
    catalog_visibility: r.catalogVisibility,
    featured: r.featured,
    categories: r.categories,
    tags: r.tags,
    images: r.images,
    variations: r.type === 'variable' ? (ctx.children.get(r.id) ?? []).map((c) => c.id) : [],
  };
}

export function variationWire(r: ProductRecord, ctx: WireContext): Wire {
  return { ...common(r, ctx), image: r.images[0] ?? null };
}
