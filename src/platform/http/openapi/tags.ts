/**
 * Descriptions of the OpenAPI tags. A route may use any tag: one missing here still gets a description
 * derived from its name, so new routes never leave a tag undeclared. Add a line when adding a tag.
 */
const DESCRIPTIONS: Record<string, string> = {
  platform: 'Discovery: the REST index (WordPress `GET /wp-json/` shape) and the index of each namespace.',
  'platform: auth': 'Cookie session with nonce (WordPress semantics): log in, fresh nonce, log out, who am I.',
  'platform: users': 'Users and their roles (administrator, shop_manager, vendor, customer).',
  'platform: api keys': 'API keys: random, shown once, stored as a keyed hash, scopes `read`/`write`, optional expiry.',
  'platform: audit': 'Append-only audit log of every write and every authentication failure.',
  'platform: operations': 'Probes and metrics for orchestrators and monitoring.',
  'wc/v3 products': 'WooCommerce REST API v3 compatible catalogue: products and variations, with `?currency=` pricing.',
  'rova-fx':
    'Currency service: public conversion for cached storefront pages, settings, currencies, rates, cache notices.',
  storefront: 'Storefront scripts, their config object and the demo shop (cacheable, never personalised).',
  'rental: public': 'Public rental reads: health, active locations, availability and price of a vehicle.',
  'rental: vehicles': 'Rental fleet (admin).',
  'rental: locations': 'Pick-up and return locations with opening hours (admin).',
  'rental: transfer routes': 'Transfer routes with fixed or distance-based prices (admin).',
  'rental: pricing rules': 'Seasons, weekend multiplier, duration tiers, add-ons, tax and deposit (admin).',
  'rental: customers': 'Creating and editing rental customers (admin).',
  'rental: bookings':
    'Bookings: atomic availability check on create, re-pricing on date changes, status machine (admin).',
  'rental v1: dashboard': 'KPI cards with month-over-month deltas and recent bookings and transfers (admin).',
  'rental v1: reports':
    'Revenue, bookings, vehicles and customers reports over a date range in the store time zone (admin).',
  'rental v1: customers': 'Customer lists with booking statistics, detail and bulk delete with anonymisation (admin).',
  'rental v1: messages (admin)': 'Admin inbox: message threads, replies and status.',
  'rental v1: my messages (customer)': 'The signed-in customer’s own message threads.',
  pages: 'HTML pages outside the REST root.',
};

export function tagDescription(name: string): string {
  const own = DESCRIPTIONS[name];
  if (own) return own;
  const [area, topic] = name.split(/:\s*/, 2);
  return topic ? `${capitalise(topic)} (${area}).` : `Routes of ${name}.`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
