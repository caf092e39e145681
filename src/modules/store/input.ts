import { invalidParam } from '../../platform/http/errors.js';
import { parseDateInput } from './dates.js';
import type { Attribute, Backorders, Image, ProductPatch, ProductStatus, RecordType } from './types.js';
import { slugify } from './slug.js';

/** Turns a validated wc/v3 body into a patch of domain fields (only the fields the body names). */

export type ProductBody = Record<string, unknown>;

const invalid = (field: string, why: string) => invalidParam(field, why);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Decimal string as stored: leading zeros dropped ("007.50" → "7.50"), "" = none. */
function price(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined || s === '') return s;
  return s.replace(/^0+(?=\d)/, '');
}

function saleDate(
  body: ProductBody,
  key: 'date_on_sale_from' | 'date_on_sale_to',
  tz: string,
): Date | null | undefined {
  const gmtKey = `${key}_gmt`;
  const endOfDay = key === 'date_on_sale_to';
  for (const [k, asGmt] of [
    [gmtKey, true],
    [key, false],
  ] as const) {
    if (!(k in body)) continue;
    const v = body[k];
    if (v === null || v === '') return null;
    const d = parseDateInput(String(v), tz, { asGmt, endOfDay });
    if (!d) throw invalid(k, `${k} is not a valid date-time (ISO 8601, e.g. 2026-05-01T00:00:00)`);
    return d;
  }
  return undefined;
}

function images(body: ProductBody, variation: boolean): Image[] | undefined {
  const raw = variation ? ('image' in body ? (body.image === null ? [] : [body.image]) : undefined) : body.images;
  if (!Array.isArray(raw)) return undefined;
  return raw.map((x: Record<string, unknown>) => ({
    id: Number(x.id ?? 0),
    src: str(x.src) ?? '',
    name: str(x.name) ?? '',
    alt: str(x.alt) ?? '',
  }));
}

export function toPatch(body: ProductBody, tz: string, variation: boolean): ProductPatch {
  const p: ProductPatch = {};
  if (body.name !== undefined) p.name = str(body.name);
  if (body.slug !== undefined) {
    const s = slugify(str(body.slug) ?? '');
    if (s !== '') p.slug = s;
  }
  if (!variation && body.type !== undefined) p.type = body.type as RecordType;
  if (body.status !== undefined) p.status = body.status as ProductStatus;
  if (body.password !== undefined) p.password = str(body.password);
  if (body.sku !== undefined) p.sku = (str(body.sku) ?? '').trim();
  if (body.description !== undefined) p.description = str(body.description);
  if (body.short_description !== undefined) p.shortDescription = str(body.short_description);
  if (body.regular_price !== undefined) p.regularPrice = price(body.regular_price);
  if (body.sale_price !== undefined) p.salePrice = price(body.sale_price);
  const from = saleDate(body, 'date_on_sale_from', tz);
  if (from !== undefined) p.saleFrom = from;
  const to = saleDate(body, 'date_on_sale_to', tz);
  if (to !== undefined) p.saleTo = to;
  if (!variation && body.catalog_visibility !== undefined) p.catalogVisibility = str(body.catalog_visibility);
  if (body.stock_status !== undefined) p.stockStatus = str(body.stock_status);
  if (typeof body.manage_stock === 'boolean') p.manageStock = body.manage_stock;
  if (typeof body.stock_quantity === 'number' || body.stock_quantity === null) p.stockQuantity = body.stock_quantity;
  if (body.backorders !== undefined) p.backorders = body.backorders as Backorders;
  if (!variation && Array.isArray(body.categories))
    p.categoryIds = [...new Set(body.categories.map((c: Record<string, unknown>) => Number(c.id)))];
  if (!variation && Array.isArray(body.tags))
    p.tagIds = [...new Set(body.tags.map((c: Record<string, unknown>) => Number(c.id)))];
  if (!variation && typeof body.featured === 'boolean') p.featured = body.featured;
  const imgs = images(body, variation);
  if (imgs) p.images = imgs;
  if (Array.isArray(body.attributes)) {
    p.attributes = body.attributes.map((a: Record<string, unknown>): Attribute => {
      const out: Attribute = { id: Number(a.id ?? 0), name: str(a.name) ?? '' };
      if (!variation) {
        if (a.position !== undefined) out.position = Number(a.position);
        if (typeof a.visible === 'boolean') out.visible = a.visible;
        if (typeof a.variation === 'boolean') out.variation = a.variation;
      }
      if (variation || a.option !== undefined) out.option = str(a.option) ?? '';
      if (!variation)
        out.options = Array.isArray(a.options) ? (a.options as string[]) : out.option !== undefined ? [out.option] : [];
      if (!variation) delete out.option;
      return out;
    });
  }
  if (body.menu_order !== undefined) p.menuOrder = Number(body.menu_order);
  if (body.rova_fixed_prices !== undefined) {
    const fixed: Record<string, string> = {};
    for (const [code, v] of Object.entries(body.rova_fixed_prices as Record<string, string>)) {
      const amount = price(v);
      if (amount) fixed[code] = amount;
    }
    p.fixedPrices = fixed;
  }
  if (p.saleFrom && p.saleTo && p.saleFrom.getTime() > p.saleTo.getTime()) {
    throw invalid('date_on_sale_to', 'date_on_sale_to must not be before date_on_sale_from');
  }
  return p;
}
