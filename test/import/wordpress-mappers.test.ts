import { describe, expect, it } from 'vitest';
import { mapBookings, mapMessages } from '../../src/modules/import/wordpress/map-bookings.js';
import { mapCurrency } from '../../src/modules/import/wordpress/map-currency.js';
import { mapAttributes, mapProducts, mapTerms } from '../../src/modules/import/wordpress/map-products.js';
import { mapPricing } from '../../src/modules/import/wordpress/map-pricing.js';
import { mapLocations, mapRoutes, mapVehicles } from '../../src/modules/import/wordpress/map-rental.js';
import { mapCustomers, mapUsers } from '../../src/modules/import/wordpress/map-users.js';
import { openWpIban, originalBalances, planLedgerRow } from '../../src/modules/import/wordpress/map-vendors.js';
import { Notes } from '../../src/modules/import/wordpress/report.js';
import type { WpPost, WpTerm, WpUser } from '../../src/modules/import/wordpress/source.js';
import { phpSerialize } from '../fixtures/wordpress/php-serialize.js';
import { sealWpIban, WP_KEYS } from '../fixtures/wordpress/fixture.js';

// The pure mappers of `rova import wordpress` (no database): WordPress rows in, Rova rows and notes out.

const post = (id: number, type: string, meta: Record<string, string> = {}, extra: Partial<WpPost> = {}): WpPost => ({
  id,
  author: 1,
  type,
  status: 'publish',
  title: `T${id}`,
  content: '',
  excerpt: '',
  name: `p-${id}`,
  password: '',
  parent: 0,
  menuOrder: 0,
  guid: '',
  dateGmt: '2025-01-02 03:04:05',
  modifiedGmt: '2025-01-03 00:00:00',
  meta: new Map(Object.entries(meta)),
  ...extra,
});
const term = (termId: number, taxonomy: string, slug: string, name = slug, extra: Partial<WpTerm> = {}): WpTerm => ({
  termId,
  taxonomyId: termId + 100,
  taxonomy,
  name,
  slug,
  description: '',
  parent: 0,
  meta: new Map(),
  ...extra,
});
const user = (
  id: number,
  login: string,
  email: string,
  roles: string[],
  pass = '$P$BabcdefghABCDEFGHIJKLMNOPQRSTUV',
  meta: Record<string, string> = {},
): WpUser => ({
  id,
  login,
  email,
  pass,
  displayName: login,
  registered: '2024-05-06 07:08:09',
  meta: new Map(
    Object.entries({ wp_capabilities: phpSerialize(Object.fromEntries(roles.map((r) => [r, true]))), ...meta }),
  ),
});

describe('catalogue', () => {
  const attrs = mapAttributes(
    [{ id: 3, name: 'color', label: 'Renk', type: 'select', orderby: 'bogus', public: true }],
    new Notes(),
  );
  const terms = [
    term(1, 'product_type', 'variable'),
    term(2, 'product_visibility', 'exclude-from-search'),
    term(5, 'product_cat', 'cars', 'Arabalar'),
    term(7, 'pa_color', 'red', 'Kırmızı'),
    term(8, 'pa_color', 'blue', 'Mavi'),
  ];

  it('attributes: label as the name, slug without pa_, unknown ordering reported', () => {
    const n = new Notes();
    expect(
      mapAttributes([{ id: 3, name: 'color', label: 'Renk', type: 'select', orderby: 'bogus', public: true }], n),
    ).toEqual([{ id: 3, name: 'Renk', slug: 'color', orderBy: 'menu_order', hasArchives: true }]);
    expect(n.warnings).toEqual(['attribute 3 (color): order "bogus" is not known, imported as menu_order']);
  });

  it('terms: attribute terms need their attribute; missing parents go to the top', () => {
    const n = new Notes();
    const rows = mapTerms(
      [term(5, 'product_cat', 'cars', 'Arabalar', { parent: 99 }), term(7, 'pa_color', 'red'), term(9, 'pa_size', 's')],
      attrs,
      n,
    );
    expect(rows.map((r) => [r.id, r.taxonomy, r.attributeId, r.parentId])).toEqual([
      [5, 'product_cat', null, null],
      [7, 'attribute', 3, null],
    ]);
    expect(n.skipped).toEqual([
      { id: '9', reason: 'taxonomy pa_size has no attribute row in woocommerce_attribute_taxonomies' },
    ]);
    expect(n.warnings).toEqual(['term 5 (Arabalar): parent 99 not found, imported at the top level']);
  });

  it('a variable product, its variation, sale schedule, visibility and a bad price', () => {
    const n = new Notes();
    const product = post(10, 'product', {
      _product_attributes: phpSerialize({
        pa_color: { name: 'pa_color', value: '', position: 0, is_visible: 1, is_variation: 1, is_taxonomy: 1 },
      }),
      _regular_price: '10',
      _stock_status: 'instock',
      _thumbnail_id: '30',
      _product_image_gallery: '31,30,99',
    });
    const simple = post(11, 'product', {
      _regular_price: '12,50',
      _sale_price: 'cheap',
      _sale_price_dates_from: '1767225600',
      _sale_price_dates_to: '2026-02-01',
      _stock_status: 'weird',
    });
    const variation = post(
      12,
      'product_variation',
      { attribute_pa_color: 'blue', _regular_price: '9.99', _sku: 'V1' },
      { parent: 10, status: 'private' },
    );
    const orphan = post(13, 'product_variation', {}, { parent: 77 });
    const links = new Map([
      [10, [1, 5, 7, 8]],
      [11, [2]],
    ]);
    const attachments = new Map([
      [
        30,
        post(
          30,
          'attachment',
          { _wp_attachment_image_alt: 'Ön' },
          { guid: 'https://shop.test/wp-content/uploads/a.jpg', title: 'A' },
        ),
      ],
      [31, post(31, 'attachment', {}, { guid: 'https://shop.test/wp-content/uploads/b.jpg', title: 'B' })],
    ]);
    const rows = mapProducts(
      {
        products: [product, simple, post(14, 'product', {}, { status: 'auto-draft' })],
        variations: [variation, orphan],
        links,
        terms,
        attributes: attrs,
        attachments,
      },
      n,
    );
    expect(rows.map((r) => [r.id, r.type, r.regularPrice, r.salePrice, r.catalogVisibility, r.stockStatus])).toEqual([
      [10, 'variable', null, null, 'visible', 'instock'],
      [11, 'simple', '12.50', null, 'catalog', 'instock'],
      [12, 'variation', '9.99', null, 'visible', 'instock'],
    ]);
    expect(rows[0]!.attributes).toEqual([
      { id: 3, name: 'Renk', position: 0, visible: true, variation: true, options: ['Kırmızı', 'Mavi'] },
    ]);
    expect(rows[0]!.termIds).toEqual([5, 7, 8]);
    expect(rows[0]!.images).toEqual([
      { id: 30, src: 'https://shop.test/wp-content/uploads/a.jpg', name: 'A', alt: 'Ön' },
      { id: 31, src: 'https://shop.test/wp-content/uploads/b.jpg', name: 'B', alt: '' },
    ]);
    expect([rows[1]!.saleFrom, rows[1]!.saleTo]).toEqual(['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);
    expect(rows[2]).toMatchObject({
      parentId: 10,
      status: 'private',
      sku: 'V1',
      attributes: [{ id: 3, name: 'Renk', option: 'Mavi' }],
      dateCreated: '2025-01-02T03:04:05.000Z',
    });
    expect(n.skipped).toEqual([
      { id: '14', reason: 'auto-draft (never saved)' },
      { id: '13', reason: 'its parent product 77 is not imported' },
    ]);
    expect(n.warnings).toEqual([
      'product 10: image 99 is not an attachment with a URL, left out',
      'product 11: stock status "weird" is not known, imported as instock',
      'product 11 sale price: "cheap" is not a price, left empty',
    ]);
  });
});

describe('currency', () => {
  it('the live woocommerce_currency is the base; bad, duplicate and base rows are left out; legacy keys reported', () => {
    const n = new Notes();
    const r = mapCurrency(
      {
        wcCurrency: '',
        settings: phpSerialize({ auto_detect: true, provider_api_key: 'secret' }),
        currencies: JSON.stringify({
          base_currency: 'GBP',
          currencies: [
            { code: 'EUR', enabled: true, rate: { type: 'manual', value: 0.9 } },
            { code: 'EUR' },
            { code: 'GBP' },
            { code: 'xx' },
          ],
        }),
      },
      n,
    );
    expect(r.base).toBe('GBP'); // no woocommerce_currency: the plugin's stored base is the fallback
    expect(r.settings).toMatchObject({ auto_detect: true, cache_compat: true });
    expect(r.rows!.map((x) => [x.code, x.rate])).toEqual([['EUR', { type: 'manual', value: 0.9, updated_at: null }]]);
    expect(n.skipped.map((s) => s.id)).toEqual(['EUR', 'GBP', 'xx']);
    expect(n.warnings).toEqual(['mhmcs_settings: legacy keys not carried over: provider_api_key']);
  });

  it('an option that does not parse is reported, not guessed', () => {
    const n = new Notes();
    expect(mapCurrency({ wcCurrency: 'EUR', settings: 'a:1:{s:3:"bad";', currencies: null }, n)).toEqual({
      base: 'EUR',
      settings: null,
      rows: null,
    });
    expect(n.warnings[0]).toMatch(/^option mhmcs_settings: does not parse as PHP serialized data/);
  });
});

describe('users and customers', () => {
  it('roles, e-mails, hashes', () => {
    const n = new Notes();
    const rows = mapUsers(
      [
        user(1, 'admin', 'A@X.test', ['administrator']),
        user(2, 'v', 'v@x.test', ['subscriber'], '$wp$2y$10$' + 'a'.repeat(53), {
          _rentiva_vendor_status: 'suspended',
        }),
        user(3, 'ed', 'ed@x.test', ['editor'], 'plaintext?'),
        user(4, 'dup', 'a@x.test', ['customer']),
        user(5, 'none', '', []),
      ],
      'wp_',
      n,
    );
    expect(rows.map((r) => [r.wpId, r.email, r.role, r.passwordHash?.slice(0, 4) ?? null])).toEqual([
      [1, 'a@x.test', 'administrator', '$P$B'],
      [2, 'v@x.test', 'vendor', '$wp$'],
      [3, 'ed@x.test', 'customer', null],
    ]);
    expect(n.skipped.map((s) => s.id)).toEqual(['4', '5']);
    expect(n.warnings).toEqual([
      'user 3 (ed): role editor has no Rova equivalent, imported as customer',
      'user 3 (ed): password hash format not recognised; the user must reset the password',
    ]);
  });

  it('customers: the customer role, booking links, guests; never user 1', () => {
    const wp = [
      user(1, 'admin', 'admin@x.test', ['administrator']),
      user(2, 'c', 'c@x.test', ['customer']),
      user(3, 'm', 'm@x.test', ['shop_manager']),
    ];
    const rows = mapUsers(wp, 'wp_', new Notes());
    const bookings = [
      post(9, 'vehicle_booking', { _mhm_customer_email: 'M@x.test' }),
      post(10, 'vehicle_booking', { _mhm_customer_email: 'g@x.test', _mhm_customer_name: 'Gül' }),
      post(11, 'vehicle_booking', { _mhm_customer_email: 'admin@x.test' }),
      post(12, 'vehicle_booking', { _mhm_customer_email: 'trash@x.test' }, { status: 'trash' }),
    ];
    expect(mapCustomers(rows, wp, bookings, new Notes()).map((c) => [c.key, c.email, c.name])).toEqual([
      ['user:2', 'c@x.test', 'c'],
      ['user:3', 'm@x.test', 'm'],
      ['email:g@x.test', 'g@x.test', 'Gül'],
    ]);
  });
});

describe('rental', () => {
  it('locations and routes: types mapped, calculated routes priced per km', () => {
    const n = new Notes();
    const locs = mapLocations(
      [
        { id: 1, name: 'İstanbul (IST)', type: 'airport', is_active: 1 },
        { id: 2, name: 'İstanbul (IST)', type: 'train', is_active: 0 },
      ],
      n,
    );
    expect(locs.map((l) => [l.id, l.slug, l.type, l.isActive])).toEqual([
      [1, 'istanbul-ist', 'airport', true],
      [2, 'istanbul-ist-2', 'station', false],
    ]);
    const routes = mapRoutes(
      [
        {
          id: 5,
          origin_id: 1,
          destination_id: 2,
          pricing_method: 'calculated',
          base_price: '1.50',
          min_price: '40.00',
          distance_km: 45,
        },
        { id: 6, origin_id: 1, destination_id: 9, base_price: '5' },
      ],
      new Map([
        [1, 'A'],
        [2, 'B'],
      ]),
      n,
    );
    expect(routes).toMatchObject([
      { id: 5, pricing: 'calculated', basePrice: '0', pricePerKm: '1.50', minPrice: '40.00', distanceKm: '45' },
    ]);
    expect(n.skipped).toEqual([{ id: '6', reason: 'origin 1 or destination 9 is not an imported location' }]);
  });

  it('vehicles: deposit percent, statuses, serialized features and blocked dates', () => {
    const n = new Notes();
    const v = mapVehicles(
      [
        post(1, 'vehicle', {
          _mhm_rentiva_price_per_day: '45',
          _mhm_rentiva_deposit: '15%',
          _mhm_rentiva_features: phpSerialize(['ABS', 'Klima']),
          _mhm_vehicle_blocked_dates: phpSerialize([{ date: '2026-01-02', note: 'x' }, '2026-01-01', 'bad']),
          _mhm_rentiva_fuel_type: 'Dizel',
          _mhm_vehicle_status: 'maintenance',
        }),
        post(2, 'vehicle', {}, { status: 'draft' }),
        post(3, 'vehicle', {}, { status: 'trash' }),
      ],
      new Map(),
      n,
    );
    expect(
      v.map((x) => [x.id, x.status, x.depositPercent, x.features, x.blockedDates, x.fuelType, x.lifecycle]),
    ).toEqual([
      [1, 'maintenance', '15', ['ABS', 'Klima'], ['2026-01-01', '2026-01-02'], 'diesel', 'active'],
      [2, 'inactive', null, [], [], 'petrol', 'withdrawn'],
    ]);
    expect(n.skipped).toEqual([{ id: '3', reason: 'in the WordPress trash' }]);
  });

  it('bookings: statuses, deposit payments, add-on lines, display id as reference', () => {
    const n = new Notes();
    const base = {
      _mhm_vehicle_id: '7',
      _mhm_start_ts: '1767261600',
      _mhm_end_ts: '1767434400',
      _mhm_rental_days: '2',
      _mhm_total_price: '120.00',
    };
    const rows = mapBookings(
      [
        post(1, 'vehicle_booking', {
          ...base,
          _mhm_status: 'confirmed',
          _mhm_payment_type: 'deposit',
          _mhm_payment_status: 'paid',
          _mhm_deposit_amount: '24',
          _mhm_remaining_amount: '96',
          _mhm_selected_addons: phpSerialize([50]),
          _mhm_wc_order_id: '900',
        }),
        post(2, 'vehicle_booking', {
          ...base,
          _mhm_status: 'weird',
          _mhm_payment_status: 'refunded',
          _mhm_payment_gateway: 'stripe',
        }),
        post(3, 'vehicle_booking', {
          _mhm_vehicle_id: '7',
          _mhm_pickup_date: '2026-01-05',
          _mhm_dropoff_date: '2026-01-04',
        }),
      ],
      new Map([[50, { id: 50, title: 'Koltuk', price: '5', pricing: 'per_day' }]]),
      n,
    );
    expect(rows.map((r) => [r.id, r.reference, r.status, r.paymentStatus, r.payment, r.lines])).toEqual([
      [
        1,
        '900',
        'confirmed',
        'deposit_paid',
        { provider: 'offline', amount: '24.00', status: 'succeeded', refunded: '0.00' },
        [
          { kind: 'rental', code: null, description: 'Rental, 2 days', amount: '110.00' },
          { kind: 'addon', code: 'wp-addon-50', description: 'Koltuk', amount: '10.00' },
        ],
      ],
      [
        2,
        '2',
        'pending',
        'refunded',
        { provider: 'stripe', amount: '120.00', status: 'refunded', refunded: '120.00' },
        [{ kind: 'rental', code: null, description: 'Rental, 2 days', amount: '120.00' }],
      ],
    ]);
    expect(rows[0]!.pickupAt).toBe('2026-01-01T10:00:00.000Z');
    expect(n.skipped).toEqual([{ id: '3', reason: 'pickup and return dates missing or not in order' }]);
    expect(n.warnings).toEqual(['booking 2: status "weird" is not known; read as pending, as the original does']);
  });

  it('messages: starters before replies, thread state only on starters', () => {
    const rows = mapMessages(
      [
        post(21, 'mhm_message', {
          _mhm_parent_message_id: '20',
          _mhm_thread_id: '20',
          _mhm_message_type: 'admin_to_customer',
          _mhm_message_status: 'answered',
        }),
        post(20, 'mhm_message', {
          _mhm_message_status: 'urgent',
          _mhm_message_category: 'refund',
          _mhm_booking_id: '4',
        }),
      ],
      new Notes(),
    );
    expect(
      rows.map((r) => [r.id, r.threadId, r.parentId, r.sender, r.status, r.priority, r.category, r.bookingId]),
    ).toEqual([
      [20, 20, null, 'customer', 'pending', 'urgent', 'other', 4],
      [21, 20, 20, 'admin', null, null, null, null],
    ]);
  });
});

describe('pricing settings', () => {
  it('weekend and tax rules, the active global policy, tiers; a tax-inclusive shop and seasons are reported', () => {
    const n = new Notes();
    const opts: Record<string, string> = {
      mhm_rentiva_vehicle_weekend_multiplier: '1.2',
      mhm_rentiva_vehicle_tax_rate: 'abc',
      mhm_rentiva_vehicle_tax_inclusive: '1',
      mhm_rentiva_vehicle_seasonal_pricing: '1',
      mhm_rentiva_commission_tiers: phpSerialize([
        { min: 100, discount: 1 },
        { threshold: 500, discount: -3 },
      ]),
      mhm_rentiva_global_payout_freeze: 'yes',
    };
    const r = mapPricing(
      (k) => opts[k] ?? null,
      [
        { id: 1, global_rate: '20.00', vendor_id: null, effective_from: '2024-01-01', effective_to: null },
        { id: 2, global_rate: '11.00', vendor_id: 4, effective_from: '2025-01-01', effective_to: null },
        { id: 3, global_rate: '14.00', vendor_id: null, effective_from: '2025-06-01', effective_to: null },
      ],
      n,
    );
    expect(r.rules).toEqual([
      {
        key: 'mhm_rentiva_vehicle_weekend_multiplier',
        name: 'Weekend (from WordPress)',
        kind: 'weekend',
        multiplier: '1.2',
        percent: null,
      },
    ]);
    expect(r.marketplace).toEqual({
      commission_rate: 14,
      tiers: [
        { min: 500, discount: 3 },
        { min: 100, discount: 1 },
      ],
      payout_freeze: true,
    });
    expect(n.warnings).toEqual([
      'option mhm_rentiva_vehicle_tax_rate: "abc" is not a price, left empty',
      'prices were tax-inclusive in WordPress; Rova adds the tax rule on top of the net price: check vehicle prices or the tax rule',
      'seasonal pricing was on in WordPress: its seasons are not imported; add season rules in Rova',
    ]);
  });
});

describe('vendors and the ledger', () => {
  it("opens an IBAN sealed the plugin's way, and only with the right keys", () => {
    const sealed = sealWpIban('TR330006100519786457841326');
    expect(openWpIban(sealed, WP_KEYS)).toBe('TR330006100519786457841326');
    expect(openWpIban(sealed, { ...WP_KEYS, authKey: 'other' })).not.toBe('TR330006100519786457841326');
    expect(openWpIban('not base64 at all', WP_KEYS)).toBeNull();
  });

  const row = (type: string, amount: string, status: string, extra: Record<string, string | null> = {}) => ({
    id: 1,
    transaction_uuid: 'u-1',
    vendor_id: 4,
    type,
    amount,
    status,
    currency: 'EUR',
    created_at: '2026-03-01 12:00:00',
    ...extra,
  });

  it('each single-entry row becomes balanced transactions moving the same buckets', () => {
    const n = new Notes();
    const credit = planLedgerRow(
      row('commission_credit', '85.00', 'cleared', { gross_amount: '100.00', commission_amount: '15.00' }),
      n,
    );
    expect(credit.map((t) => [t.key, t.kind, t.lines])).toEqual([
      [
        'wordpress:ledger:u-1',
        'commission',
        [
          { account: 'external', amount: -10000 },
          { account: 'vendor:0:pending', amount: 8500 },
          { account: 'platform:commission', amount: 1500 },
        ],
      ],
      [
        'wordpress:ledger:u-1:clearing',
        'commission_clearing',
        [
          { account: 'vendor:0:pending', amount: -8500 },
          { account: 'vendor:0:available', amount: 8500 },
        ],
      ],
    ]);
    for (const t of [
      ...credit,
      ...planLedgerRow(row('payout_debit', '-10.00', 'cleared'), n),
      ...planLedgerRow(row('withdrawal_penalty', '-5', 'cleared'), n),
    ]) {
      expect(t.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
    }
    expect(planLedgerRow(row('commission_credit', '1', 'void'), n)).toEqual([]);
    expect(planLedgerRow(row('commission_credit', '-1', 'cleared'), n)).toEqual([]);
    expect(n.skipped).toEqual([
      { id: 'u-1', reason: 'void row (counts in no balance of the original)' },
      {
        id: 'u-1',
        reason: "cleared commission_credit with amount -1 does not fit the original's rules (sign or status)",
      },
    ]);
  });

  it("the original's balances: available = cleared + reserved; pending = pending commission rows", () => {
    expect(
      originalBalances([
        row('commission_credit', '10', 'cleared'),
        row('commission_credit', '5', 'reserved'),
        row('commission_credit', '7', 'pending'),
        row('payout_debit', '-3', 'pending'),
        row('commission_credit', '99', 'void'),
      ]),
    ).toEqual(new Map([['EUR', { available: 1500, pending: 700 }]]));
  });
});
