import type { SourceCache } from './context.js';
import { maybeUnserialize } from './php-unserialize.js';
import type { NotImported } from './report.js';
import type { WpPost, WpSource, WpUser } from './source.js';

/**
 * What a WordPress site holds that the import leaves out, counted on the site (docs/operators/import-wordpress.md →
 * "Not imported" lists the same items): nothing is dropped without a line there and a count in the report.
 */

/** Post types the import reads (4.x and 6.x names): every other type is counted below. */
const IMPORTED_TYPES = [
  'product',
  'product_variation',
  'vehicle',
  'mhmrentiva_vehicle',
  'vehicle_booking',
  'mhmrentiva_booking',
  'mhm_message',
  'mhmrentiva_message',
];

const POST_TYPES: [what: string, types: string[]][] = [
  [
    'WooCommerce orders and refunds (shop_order, shop_order_refund)',
    ['shop_order', 'shop_order_refund', 'shop_order_placehold'],
  ],
  ['WooCommerce coupons (shop_coupon)', ['shop_coupon']],
  [
    'add-on posts (vehicle_addon): only their prices, as booking price lines',
    ['vehicle_addon', 'mhmrentiva_addon', 'mhmrentiva_vehicle_addon'],
  ],
  ['payout requests (mhm_payout): their ledger rows are imported', ['mhm_payout']],
  ['vendor applications (vendor_application)', ['vendor_application', 'mhm_vendor_application']],
  ['blog posts and pages (post, page)', ['post', 'page']],
  ['application logs (mhm_app_log)', ['mhm_app_log']],
  [
    'media library files (attachment): product images come over as their URLs, the files stay where WordPress keeps them',
    ['attachment'],
  ],
];

const has = (m: Map<string, string>, k: string) => (m.get(k) ?? '').trim() !== '';
const anyOf = (keys: string[]) => (m: Map<string, string>) => keys.some((k) => has(m, k));
const yes = (key: string) => (m: Map<string, string>) => m.get(key) === 'yes';
/** A serialized list that holds something (WooCommerce stores an empty one as a:0:{}). */
const list = (keys: string[]) => (m: Map<string, string>) =>
  keys.some((k) => has(m, k) && !/^a:0:\{\}$/.test((m.get(k) ?? '').trim()));

type MetaTest = (m: Map<string, string>) => boolean;

const VEHICLE_META: [what: string, test: MetaTest][] = [
  ['vehicle equipment lists (_mhm_rentiva_equipment)', anyOf(['_mhm_rentiva_equipment'])],
  [
    'vehicle licence plates, mileage and colours',
    anyOf(['_mhm_rentiva_license_plate', '_mhm_rentiva_mileage', '_mhm_rentiva_color']),
  ],
  ['vehicle ratings (_mhm_rentiva_rating_*)', anyOf(['_mhm_rentiva_rating_average', '_mhm_rentiva_rating_count'])],
  ['blocked-date notes (_mhm_blocked_dates_notes)', anyOf(['_mhm_blocked_dates_notes'])],
  ['vendor transfer route prices (_mhm_rentiva_transfer_route_prices)', anyOf(['_mhm_rentiva_transfer_route_prices'])],
  [
    'vehicle listing dates (_mhm_vehicle_listing_*)',
    anyOf(['_mhm_vehicle_listing_started_at', '_mhm_vehicle_listing_expires_at']),
  ],
  ['transfer price multipliers (_mhm_transfer_price_multiplier)', anyOf(['_mhm_transfer_price_multiplier'])],
];

/** WooCommerce product fields Rova's catalogue has no place for (products and variations that set them). */
const PRODUCT_META: [what: string, test: MetaTest][] = [
  [
    'product weights and dimensions (_weight, _length, _width, _height)',
    anyOf(['_weight', '_length', '_width', '_height']),
  ],
  ['downloadable and virtual products (_downloadable, _virtual)', (m) => yes('_downloadable')(m) || yes('_virtual')(m)],
  [
    'product tax statuses and classes (_tax_status other than taxable, _tax_class)',
    // a variation's "parent" class is its product's (WooCommerce's default for variations)
    (m) =>
      (has(m, '_tax_class') && m.get('_tax_class') !== 'parent') ||
      (has(m, '_tax_status') && m.get('_tax_status') !== 'taxable'),
  ],
  ['upsells and cross-sells (_upsell_ids, _crosssell_ids)', list(['_upsell_ids', '_crosssell_ids'])],
  ['purchase notes (_purchase_note)', anyOf(['_purchase_note'])],
  ['low-stock thresholds (_low_stock_amount)', anyOf(['_low_stock_amount'])],
  ['sold individually (_sold_individually)', yes('_sold_individually')],
];

/** WooCommerce's customer addresses (user meta): the import keeps a customer's phone only. */
const ADDRESS_KEYS = ['billing_address_1', 'billing_city', 'shipping_address_1', 'shipping_city'];

const TAX_OPTIONS = ['woocommerce_calc_taxes', 'woocommerce_prices_include_tax'];

function countWith(items: { meta: Map<string, string> }[], test: MetaTest): number {
  return items.filter((x) => test(x.meta)).length;
}

export async function countNotImported(source: WpSource, cache: SourceCache): Promise<NotImported[]> {
  const out: NotImported[] = [];
  const byType = await source.postTypeCounts();
  const sum = (types: string[]) => types.reduce((n, t) => n + (byType.get(t) ?? 0), 0);
  for (const [what, types] of POST_TYPES) out.push({ what, count: sum(types) });
  const known = new Set([...IMPORTED_TYPES, ...POST_TYPES.flatMap(([, types]) => types)]);
  const others = [...byType.keys()].filter((t) => !known.has(t)).sort();
  out.push({
    what: `other post types (${others.length ? others.join(', ') : 'revisions, menus, blocks, templates…'})`,
    count: sum(others),
  });

  const comments = await source.commentCounts(['product', 'product_variation']);
  out.push({ what: 'product reviews and their ratings (comments on products)', count: comments.on });
  out.push({ what: 'comments on blog posts and pages', count: comments.other });

  const catalogue: WpPost[] = [...(await cache.posts('product')), ...(await cache.posts('product_variation'))];
  for (const [what, test] of PRODUCT_META) out.push({ what, count: countWith(catalogue, test) });
  out.push({
    what: 'shipping classes (product_shipping_class)',
    count: (await source.terms(['product_shipping_class'])).length,
  });
  out.push({
    what: 'shipping zones with their locations and methods (woocommerce_shipping_zones)',
    count: (await source.count('woocommerce_shipping_zones')) ?? 0,
  });
  out.push({ what: 'tax rates (woocommerce_tax_rates)', count: (await source.count('woocommerce_tax_rates')) ?? 0 });
  const taxOptions = [...TAX_OPTIONS, ...(await source.optionNames('woocommerce_tax_'))];
  let taxSet = 0;
  for (const name of new Set(taxOptions)) if (((await source.option(name)) ?? '').trim() !== '') taxSet++;
  out.push({
    what: 'tax settings (woocommerce_calc_taxes, woocommerce_prices_include_tax, woocommerce_tax_*)',
    count: taxSet,
  });

  const users: WpUser[] = await cache.users();
  out.push({
    what: 'customer billing and shipping addresses (billing_*, shipping_* user meta): only the phone is imported',
    count: countWith(users, anyOf(ADDRESS_KEYS)),
  });

  out.push(...(await rentalLeftOut(source, users)));

  const vehicles = await cache.posts('vehicle');
  for (const [what, test] of VEHICLE_META) out.push({ what, count: countWith(vehicles, test) });
  out.push({
    what: 'seasonal pricing seasons (mhm_rentiva_vehicle_seasonal_pricing)',
    count: (await source.option('mhm_rentiva_vehicle_seasonal_pricing')) === '1' ? 1 : 0,
  });
  return out;
}

/** How many entries a serialized (or JSON) option holds: an array's or a record's length, 0 when it does not read. */
function entries(raw: string | null): number {
  if (raw === null || raw.trim() === '') return 0;
  const r = maybeUnserialize(raw);
  let v: unknown = r.ok ? r.value : undefined;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return 0;
    }
  }
  return Array.isArray(v) ? v.length : v !== null && typeof v === 'object' ? Object.keys(v).length : 0;
}

/** The rental plugin's own records the import leaves out (reference: rental-original.md 2.7, 2.9–2.12). */
async function rentalLeftOut(source: WpSource, users: WpUser[]): Promise<NotImported[]> {
  const policies = (await source.table('mhm_rentiva_commission_policy')) ?? [];
  const routes =
    (await source.table('rentiva_transfer_routes')) ?? (await source.table('mhm_rentiva_transfer_routes')) ?? [];
  return [
    {
      what: 'vendor-specific commission policies (mhm_rentiva_commission_policy rows with a vendor): the per-vendor rate meta is imported',
      count: policies.filter((r) => r.vendor_id !== null && Number(r.vendor_id) !== 0).length,
    },
    {
      what: 'vendor reliability score history (_rentiva_vendor_score_history): the current score is imported',
      count: countWith(users, list(['_rentiva_vendor_score_history'])),
    },
    {
      what: 'payout audit rows (mhm_rentiva_payout_audit)',
      count: (await source.count('mhm_rentiva_payout_audit')) ?? 0,
    },
    {
      what: "the rental plugin's API keys (mhm_rentiva_api_keys)",
      count: entries(await source.option('mhm_rentiva_api_keys')),
    },
    {
      what: 'WooCommerce REST API keys (woocommerce_api_keys)',
      count: (await source.count('woocommerce_api_keys')) ?? 0,
    },
    {
      what: 'export history (mhm_rentiva_export_history)',
      count: entries(await source.option('_transient_mhm_rentiva_export_history')),
    },
    {
      what: 'featured transfer routes (is_featured)',
      count: routes.filter((r) => Number(r.is_featured ?? 0) === 1).length,
    },
  ];
}
