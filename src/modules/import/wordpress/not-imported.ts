import type { SourceCache } from './context.js';
import type { NotImported } from './report.js';
import type { WpSource } from './source.js';

/**
 * What a WordPress site holds that the import leaves out, counted on the site (docs/operators/import-wordpress.md →
 * "Not imported" lists the same items): nothing is dropped without a line there and a count in the report.
 */

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
];

const VEHICLE_META: [what: string, keys: string[]][] = [
  ['vehicle equipment lists (_mhm_rentiva_equipment)', ['_mhm_rentiva_equipment']],
  [
    'vehicle licence plates, mileage and colours',
    ['_mhm_rentiva_license_plate', '_mhm_rentiva_mileage', '_mhm_rentiva_color'],
  ],
  ['vehicle ratings (_mhm_rentiva_rating_*)', ['_mhm_rentiva_rating_average', '_mhm_rentiva_rating_count']],
  ['blocked-date notes (_mhm_blocked_dates_notes)', ['_mhm_blocked_dates_notes']],
  ['vendor transfer route prices (_mhm_rentiva_transfer_route_prices)', ['_mhm_rentiva_transfer_route_prices']],
  [
    'vehicle listing dates (_mhm_vehicle_listing_*)',
    ['_mhm_vehicle_listing_started_at', '_mhm_vehicle_listing_expires_at'],
  ],
  ['transfer price multipliers (_mhm_transfer_price_multiplier)', ['_mhm_transfer_price_multiplier']],
];

export async function countNotImported(source: WpSource, cache: SourceCache): Promise<NotImported[]> {
  const out: NotImported[] = [];
  for (const [what, types] of POST_TYPES) out.push({ what, count: await cache.countPosts(types) });
  const vehicles = await cache.posts('vehicle');
  for (const [what, keys] of VEHICLE_META)
    out.push({ what, count: vehicles.filter((v) => keys.some((k) => (v.meta.get(k) ?? '').trim() !== '')).length });
  out.push({
    what: 'seasonal pricing seasons (mhm_rentiva_vehicle_seasonal_pricing)',
    count: (await source.option('mhm_rentiva_vehicle_seasonal_pricing')) === '1' ? 1 : 0,
  });
  return out;
}
