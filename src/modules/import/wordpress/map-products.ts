import type { Attribute, Backorders } from '../../store/index.js';
import { detail, subject, type Notes, type Subject } from './report.js';
import type { WpAttributeTaxonomy, WpPost, WpTerm } from './source.js';
import { withStock } from './map-stock.js';
import { decimalOrNull, gmtIso, isRecord, phpMeta } from './values.js';
import { sanitizeTitle } from './wp-text.js';

/** WooCommerce catalogue → Rova rows (pure). Ids are WordPress's own: term ids, attribute ids, post ids. */

export interface TermRow {
  id: number;
  taxonomy: 'product_cat' | 'product_tag' | 'attribute';
  attributeId: number | null;
  parentId: number | null;
  name: string;
  slug: string;
  description: string;
  display: 'default' | 'products' | 'subcategories' | 'both';
  menuOrder: number;
}

export interface AttributeRow {
  id: number;
  name: string;
  slug: string;
  orderBy: 'menu_order' | 'name' | 'name_num' | 'id';
  hasArchives: boolean;
}

export interface ProductImage {
  id: number;
  src: string;
  name: string;
  alt: string;
}

export interface ProductRow {
  id: number;
  parentId: number | null;
  type: 'simple' | 'variable' | 'variation';
  name: string;
  slug: string;
  status: string;
  password: string;
  sku: string;
  description: string;
  shortDescription: string;
  regularPrice: string | null;
  salePrice: string | null;
  saleFrom: string | null;
  saleTo: string | null;
  catalogVisibility: 'visible' | 'catalog' | 'search' | 'hidden';
  stockStatus: 'instock' | 'outofstock' | 'onbackorder';
  /** `_manage_stock`, `_stock`, `_backorders` (map-stock.ts). */
  manageStock: boolean;
  stockQuantity: number | null;
  backorders: Backorders;
  featured: boolean;
  attributes: Attribute[];
  /** The featured image, then the gallery: the files stay where WordPress keeps them (their URLs). */
  images: ProductImage[];
  menuOrder: number;
  preTrashStatus: string | null;
  /** The currency plugin's per-product fixed prices (`_mhmcs_fixed_prices`), e.g. {EUR: "149.99"}. */
  fixedPrices: Record<string, string>;
  dateCreated: string;
  dateModified: string;
  /** product_cat, product_tag and attribute term ids to link. */
  termIds: number[];
}

const DISPLAY = ['default', 'products', 'subcategories', 'both'] as const;
const ORDER_BY = ['menu_order', 'name', 'name_num', 'id'] as const;
const STATUSES = ['publish', 'draft', 'pending', 'private', 'future', 'trash'];
const STOCK = ['instock', 'outofstock', 'onbackorder'] as const;

export function mapAttributes(list: WpAttributeTaxonomy[], notes: Notes): AttributeRow[] {
  return list.map((a) => {
    const orderBy = (ORDER_BY as readonly string[]).includes(a.orderby)
      ? (a.orderby as AttributeRow['orderBy'])
      : 'menu_order';
    if (orderBy !== a.orderby)
      notes.warn(
        subject('attribute', a.id, a.name),
        'unknown',
        `order "${a.orderby}" is not known, imported as menu_order`,
      );
    if (a.type !== 'select')
      notes.warn(subject('attribute', a.id, a.name), 'unsupported', `type "${a.type}" imported as select`);
    return {
      id: a.id,
      name: a.label || a.name,
      slug: a.name.replace(/^pa_/, '').slice(0, 28),
      orderBy,
      hasArchives: a.public,
    };
  });
}

export function mapTerms(terms: WpTerm[], attributes: AttributeRow[], notes: Notes): TermRow[] {
  const bySlug = new Map(attributes.map((a) => [`pa_${a.slug}`, a.id]));
  const ids = new Set(terms.map((t) => t.termId));
  const out: TermRow[] = [];
  for (const t of terms) {
    let taxonomy: TermRow['taxonomy'];
    let attributeId: number | null = null;
    if (t.taxonomy === 'product_cat' || t.taxonomy === 'product_tag') taxonomy = t.taxonomy;
    else if (bySlug.has(t.taxonomy)) {
      taxonomy = 'attribute';
      attributeId = bySlug.get(t.taxonomy)!;
    } else {
      notes.skip(
        t.termId,
        'unlinked',
        `taxonomy ${t.taxonomy} has no attribute row in woocommerce_attribute_taxonomies`,
      );
      continue;
    }
    const displayRaw = t.meta.get('display_type') ?? '';
    const display = (DISPLAY as readonly string[]).includes(displayRaw)
      ? (displayRaw as TermRow['display'])
      : 'default';
    if (t.parent && !ids.has(t.parent))
      notes.warn(
        subject('term', t.termId, t.name),
        'unlinked',
        `parent ${t.parent} not found, imported at the top level`,
      );
    out.push({
      id: t.termId,
      taxonomy,
      attributeId,
      parentId: taxonomy === 'product_cat' && t.parent && ids.has(t.parent) ? t.parent : null,
      name: t.name,
      slug: t.slug,
      description: t.description,
      display,
      menuOrder: Number(t.meta.get('order') ?? 0) || 0,
    });
  }
  return out;
}

/** Sale dates: WooCommerce 3+ keeps Unix timestamps; older stores kept "Y-m-d". */
function saleDate(v: string | undefined, at: Subject, notes: Notes): string | null {
  const s = (v ?? '').trim();
  if (!s) return null;
  if (/^\d{1,12}$/.test(s)) return new Date(Number(s) * 1000).toISOString();
  const d = new Date(/^\d{4}-\d\d-\d\d$/.test(s) ? `${s}T00:00:00Z` : s);
  if (Number.isNaN(d.getTime())) {
    notes.warn(at, 'unreadable', `sale date "${v}" does not parse, left empty`);
    return null;
  }
  return d.toISOString();
}

function visibility(termSlugs: Set<string>): ProductRow['catalogVisibility'] {
  const noCatalog = termSlugs.has('exclude-from-catalog');
  const noSearch = termSlugs.has('exclude-from-search');
  return noCatalog && noSearch ? 'hidden' : noCatalog ? 'search' : noSearch ? 'catalog' : 'visible';
}

export interface CatalogueInput {
  products: WpPost[];
  variations: WpPost[];
  /** object id → term ids, every taxonomy the catalogue uses (product_type, product_visibility, product_cat, …). */
  links: Map<number, number[]>;
  terms: WpTerm[];
  attributes: AttributeRow[];
  /** Attachment posts by id (product images). */
  attachments?: Map<number, WpPost>;
}

function images(p: WpPost, attachments: Map<number, WpPost> | undefined, notes: Notes, at: Subject): ProductImage[] {
  const ids = [p.meta.get('_thumbnail_id') ?? '', ...(p.meta.get('_product_image_gallery') ?? '').split(',')]
    .map((x) => Number(x.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  const out: ProductImage[] = [];
  for (const id of [...new Set(ids)]) {
    const a = attachments?.get(id);
    if (!a || !a.guid) {
      notes.warn(at, 'unlinked', `image ${id} is not an attachment with a URL, left out`);
      continue;
    }
    out.push({ id, src: a.guid, name: a.title, alt: a.meta.get('_wp_attachment_image_alt') ?? '' });
  }
  return out;
}

/** `_mhmcs_fixed_prices`: JSON {"EUR":"149.99"} (or a PHP array); codes ^[A-Z]{3}$, amounts with "," read as "."; what does not fit is reported. */
function fixedPrices(p: WpPost, notes: Notes): Record<string, string> {
  const key = '_mhmcs_fixed_prices';
  const raw = p.meta.get(key);
  if (raw === undefined || raw.trim() === '') return {};
  let v: unknown;
  if (/^\s*\{/.test(raw)) {
    try {
      v = JSON.parse(raw) as unknown;
    } catch {
      notes.value(p.id, key, 'unreadable', 'looks like JSON but does not parse; no fixed prices imported');
      return {};
    }
  } else v = phpMeta(raw, { id: p.id, key }, notes);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    if (v !== undefined)
      notes.value(p.id, key, 'unreadable', 'is not a currency → price map; no fixed prices imported');
    return {};
  }
  const out: Record<string, string> = {};
  for (const [code, amount] of Object.entries(v as Record<string, unknown>)) {
    const text = String(amount ?? '')
      .trim()
      .replace(',', '.');
    if (!/^[A-Z]{3}$/.test(code) || !/^\d+(\.\d+)?$/.test(text)) {
      notes.value(
        p.id,
        key,
        'unreadable',
        `entry ${code.slice(0, 10)} = "${text.slice(0, 20)}" is not a currency code and a price; left out`,
      );
      continue;
    }
    out[code] = text;
  }
  return out;
}

/** Terms of a global attribute in the attribute's order (woocommerce_attribute_taxonomies.attribute_orderby). */
function orderedTerms(terms: WpTerm[], a: AttributeRow): WpTerm[] {
  const order = (t: WpTerm) => Number(t.meta.get('order') ?? t.meta.get(`order_pa_${a.slug}`) ?? 0) || 0;
  const byName = (x: WpTerm, y: WpTerm) => x.name.localeCompare(y.name, undefined, { sensitivity: 'base' });
  const sorted = [...terms];
  if (a.orderBy === 'id') sorted.sort((x, y) => x.termId - y.termId);
  else if (a.orderBy === 'name') sorted.sort(byName);
  else if (a.orderBy === 'name_num')
    sorted.sort((x, y) => (Number.parseFloat(x.name) || 0) - (Number.parseFloat(y.name) || 0) || byName(x, y));
  else sorted.sort((x, y) => order(x) - order(y) || byName(x, y));
  return sorted;
}

function common(p: WpPost, notes: Notes, at: Subject) {
  const stockRaw = p.meta.get('_stock_status') ?? 'instock';
  const stockStatus = (STOCK as readonly string[]).includes(stockRaw)
    ? (stockRaw as ProductRow['stockStatus'])
    : 'instock';
  if (stockRaw !== stockStatus)
    notes.warn(at, 'unknown', `stock status "${stockRaw}" is not known, imported as instock`);
  const created = gmtIso(p.dateGmt) ?? new Date(0).toISOString();
  return {
    sku: (p.meta.get('_sku') ?? '').trim(),
    regularPrice: decimalOrNull(p.meta.get('_regular_price'), detail(at, 'regular price', '_regular_price'), notes),
    salePrice: decimalOrNull(p.meta.get('_sale_price'), detail(at, 'sale price', '_sale_price'), notes),
    saleFrom: saleDate(p.meta.get('_sale_price_dates_from'), { ...at, key: '_sale_price_dates_from' }, notes),
    saleTo: saleDate(p.meta.get('_sale_price_dates_to'), { ...at, key: '_sale_price_dates_to' }, notes),
    stockStatus,
    menuOrder: p.menuOrder,
    fixedPrices: fixedPrices(p, notes),
    dateCreated: created,
    dateModified: gmtIso(p.modifiedGmt) ?? created,
  };
}

export function mapProducts(input: CatalogueInput, notes: Notes): ProductRow[] {
  const termById = new Map(input.terms.map((t) => [t.termId, t]));
  const attrByTaxonomy = new Map(input.attributes.map((a) => [`pa_${a.slug}`, a]));
  const out: ProductRow[] = [];
  const parents = new Map<number, { row: ProductRow; order: Map<string, number>; customNames: Map<string, string> }>();
  for (const p of input.products) {
    const at = subject('product', p.id);
    if (!STATUSES.includes(p.status)) {
      notes.skip(
        p.id,
        p.status === 'auto-draft' ? 'not_live' : 'unknown',
        p.status === 'auto-draft' ? 'auto-draft (never saved)' : `post status "${p.status}" is not a product status`,
      );
      continue;
    }
    const linked = (input.links.get(p.id) ?? [])
      .map((id) => termById.get(id))
      .filter((t): t is WpTerm => t !== undefined);
    const typeTerm = linked.find((t) => t.taxonomy === 'product_type')?.slug ?? 'simple';
    if (typeTerm !== 'simple' && typeTerm !== 'variable') {
      notes.skip(p.id, 'unsupported', `product type "${typeTerm}" is not supported (simple and variable are)`);
      continue;
    }
    const slugs = new Set(linked.filter((t) => t.taxonomy === 'product_visibility').map((t) => t.slug));
    const raw = phpMeta(p.meta.get('_product_attributes'), { id: p.id, key: '_product_attributes' }, notes);
    const attributes: Attribute[] = [];
    const order = new Map<string, number>();
    const customNames = new Map<string, string>();
    if (isRecord(raw)) {
      const entries = Object.entries(raw).filter((e): e is [string, Record<string, never>] => isRecord(e[1]));
      entries.sort((a, b) => Number(a[1].position ?? 0) - Number(b[1].position ?? 0));
      for (const [key, a] of entries) {
        const base = {
          position: Number(a.position ?? 0),
          visible: Number(a.is_visible ?? 0) === 1,
          variation: Number(a.is_variation ?? 0) === 1,
        };
        order.set(key, base.position);
        if (Number(a.is_taxonomy ?? 0) === 1) {
          const g = attrByTaxonomy.get(key);
          if (!g) {
            notes.warn(at, 'unlinked', `attribute ${key} is not a global attribute, left out`);
            continue;
          }
          const options = orderedTerms(
            linked.filter((t) => t.taxonomy === key),
            g,
          ).map((t) => t.name);
          attributes.push({ id: g.id, name: g.name, ...base, options });
        } else {
          const options = String(a.value ?? '')
            .split('|')
            .map((s) => s.trim())
            .filter(Boolean);
          // the key is sanitize_title of the name ("vizor"); the name is what the shop shows ("Vizör")
          const name = String(a.name ?? key);
          customNames.set(key, name);
          attributes.push({ id: 0, name, ...base, options });
        }
      }
    }
    // a trashed post's name is "<slug>__trashed"; WordPress keeps the slug it gets back on restore in _wp_desired_post_slug
    const desired = p.status === 'trash' ? (p.meta.get('_wp_desired_post_slug') ?? '').trim() : '';
    const slug = desired || p.name || `product-${p.id}`;
    const row: ProductRow = {
      id: p.id,
      parentId: null,
      type: typeTerm,
      name: p.title,
      slug,
      status: p.status,
      password: p.password,
      description: p.content,
      shortDescription: p.excerpt,
      catalogVisibility: visibility(slugs),
      featured: slugs.has('featured'),
      attributes,
      images: images(p, input.attachments, notes, at),
      preTrashStatus: p.status === 'trash' ? (p.meta.get('_wp_trash_meta_status') ?? 'draft') : null,
      termIds: linked
        .filter((t) => t.taxonomy === 'product_cat' || t.taxonomy === 'product_tag' || attrByTaxonomy.has(t.taxonomy))
        .map((t) => t.termId),
      ...withStock(common(p, notes, at), p.meta, typeTerm === 'variable', at, notes),
    };
    if (row.type === 'variable' && (row.regularPrice !== null || row.salePrice !== null)) {
      row.regularPrice = null;
      row.salePrice = null;
    }
    out.push(row);
    parents.set(p.id, { row, order, customNames });
  }
  for (const v of input.variations) {
    const at = subject('variation', v.id);
    const parent = parents.get(v.parent);
    if (!parent || parent.row.type !== 'variable') {
      notes.skip(
        v.id,
        parent ? 'unsupported' : 'unlinked',
        parent ? `its parent ${v.parent} is not a variable product` : `its parent product ${v.parent} is not imported`,
      );
      continue;
    }
    if (v.status !== 'publish' && v.status !== 'private') {
      notes.skip(
        v.id,
        'unsupported',
        `variation status "${v.status}" (only publish and private variations exist in Rova)`,
      );
      continue;
    }
    const attributes: Attribute[] = [];
    for (const [key, value] of v.meta) {
      if (!key.startsWith('attribute_')) continue;
      const tax = key.slice('attribute_'.length);
      const g = attrByTaxonomy.get(tax);
      if (g) {
        // the meta holds the term's slug ("kirmizi"); the option shown is the term's name, the slug stays for links
        const term = input.terms.find((t) => t.taxonomy === tax && t.slug === value);
        if (!term && value !== '')
          notes.value(v.id, key, 'unlinked', `no term "${value.slice(0, 40)}" in ${tax}; kept as written`);
        attributes.push({
          id: g.id,
          name: g.name,
          option: term?.name ?? value,
          ...(value !== '' ? { slug: value } : {}),
        });
      } else {
        const name =
          parent.customNames.get(tax) ??
          parent.row.attributes.find((a) => a.id === 0 && sanitizeTitle(a.name) === tax)?.name;
        if (name === undefined)
          notes.value(v.id, key, 'unlinked', `the parent has no custom attribute "${tax}"; named by its key`);
        attributes.push({ id: 0, name: name ?? tax, option: value });
      }
    }
    const keyOf = (a: Attribute) =>
      a.id > 0 ? `pa_${input.attributes.find((x) => x.id === a.id)?.slug}` : sanitizeTitle(a.name);
    attributes.sort((a, b) => (parent.order.get(keyOf(a)) ?? 99) - (parent.order.get(keyOf(b)) ?? 99));
    out.push({
      id: v.id,
      parentId: v.parent,
      type: 'variation',
      name: v.title,
      slug: v.name || `${parent.row.slug}-${v.id}`,
      status: v.status,
      password: '',
      description: v.meta.get('_variation_description') ?? '',
      shortDescription: '',
      catalogVisibility: 'visible',
      featured: false,
      attributes,
      preTrashStatus: null,
      termIds: [],
      images: images(v, input.attachments, notes, at),
      ...withStock(common(v, notes, at), v.meta, false, at, notes),
    });
  }
  return out;
}
