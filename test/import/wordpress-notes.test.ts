import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport } from '../../src/modules/import/wordpress/cli.js';
import { planLedgerRow } from '../../src/modules/import/wordpress/map-vendors.js';
import { Notes, type EntityReport, type ImportReport } from '../../src/modules/import/wordpress/report.js';
import { importWordPress, type ImportTarget } from '../../src/modules/import/wordpress/service.js';
import { one } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { WP_KEYS, type Row, type Writer } from '../fixtures/wordpress/fixture.js';
import { memorySource } from '../fixtures/wordpress/memory-source.js';

// `rova import wordpress`: what the report says about each record (structured notes: entity, WordPress id, key, code,
// reason), the values it could not read, the dates of drafts, and what it counts as not imported. The fixture site's
// rows (test/fixtures/wordpress), changed per test, read in memory and imported into PGlite.

const target = (app: TestApp): ImportTarget => ({
  db: app.platform.db,
  transaction: (f) => app.platform.transaction(f),
  secret: app.config.secret,
});
const setMeta = (w: Writer, postId: number, key: string, value: string) => {
  const m = w.postmeta.find((x) => Number(x.post_id) === postId && x.meta_key === key);
  if (m) m.meta_value = value;
  else w.meta(postId, key, value);
};
const option = (w: Writer, name: string, value: string) => {
  const o = w.options.find((x) => x.option_name === name);
  if (o) o.option_value = value;
  else w.options.push({ option_name: name, option_value: value });
};
const entity = (r: ImportReport, name: string): EntityReport => r.entities.find((e) => e.entity === name)!;

function shaped(w: Writer, extra: Map<string, Row[]>, prefix: string): void {
  // an Istanbul site (+03 all year since 2016)
  option(w, 'timezone_string', 'Europe/Istanbul');
  // a product saved as a draft: WordPress keeps post_date_gmt at its zero date until it is published
  w.post(190, 'product', 'Draft helmet', 'draft', {
    post_name: 'draft-helmet',
    post_date: '2026-02-01 12:00:00',
    post_date_gmt: '0000-00-00 00:00:00',
    post_modified: '2026-02-02 12:00:00',
    post_modified_gmt: '0000-00-00 00:00:00',
  });
  // a price that does not read, on a product and on a variation: each pass reports its own record only
  setMeta(w, 101, '_sale_price', 'cheap');
  setMeta(w, 151, '_sale_price', 'cheaper');
  // numeric vehicle meta a shop owner typed as words: reported with vehicle, id and meta key, never emptied silently
  setMeta(w, 300, '_mhm_rentiva_seats', 'five');
  setMeta(w, 301, '_mhm_rentiva_doors', '4 doors');
  // what Rova does not import: a review and a comment, a shipping zone, two tax rates, tax settings, product fields,
  // customer addresses, other post types
  extra.set(`${prefix}comments`, [
    { comment_ID: 1, comment_post_ID: 100, comment_type: 'review' },
    { comment_ID: 2, comment_post_ID: 180, comment_type: 'comment' },
  ]);
  w.post(180, 'post', 'Hello world', 'publish');
  w.post(181, 'revision', 'Hello world', 'inherit');
  w.post(182, 'nav_menu_item', 'Home', 'publish');
  extra.set(`${prefix}woocommerce_shipping_zones`, [{ zone_id: 1, zone_name: 'Europe', zone_order: 0 }]);
  extra.set(`${prefix}woocommerce_tax_rates`, [
    { tax_rate_id: 1, tax_rate_country: 'DE', tax_rate: '19.0000' },
    { tax_rate_id: 2, tax_rate_country: 'FR', tax_rate: '20.0000' },
  ]);
  option(w, 'woocommerce_calc_taxes', 'yes');
  option(w, 'woocommerce_tax_round_at_subtotal', 'no');
  setMeta(w, 100, '_weight', '1.5');
  setMeta(w, 102, '_virtual', 'yes');
  setMeta(w, 103, '_upsell_ids', 'a:1:{i:0;i:100;}');
  setMeta(w, 104, '_upsell_ids', 'a:0:{}');
  w.umeta(7, 'billing_address_1', 'Hauptstraße 1');
  option(
    w,
    'mhm_rentiva_api_keys',
    'a:2:{s:7:"key_aaa";a:1:{s:4:"name";s:1:"a";}s:7:"key_bbb";a:1:{s:4:"name";s:1:"b";}}',
  );
  extra.set(`${prefix}woocommerce_api_keys`, [{ key_id: 1 }]);
  w.post(183, 'mhm_app_log', 'Payment log', 'publish');
}

describe('structured notes, unreadable values, draft dates, what is not imported', () => {
  let t: TestApp;
  let report: ImportReport;

  beforeAll(async () => {
    t = await makeApp({ env: { STORE_TIMEZONE: '' } });
    report = await importWordPress(target(t), memorySource(shaped), { wpKeys: WP_KEYS });
  }, 240_000);
  afterAll(async () => t?.close());

  it('every note names its entity and WordPress id, with a code; each pass keeps the notes of its own records', () => {
    for (const e of report.entities)
      for (const n of e.notes) {
        expect(n.entity).toBe(e.entity);
        expect(typeof n.code).toBe('string');
      }
    expect(entity(report, 'products').notes).toContainEqual({
      kind: 'warning',
      entity: 'products',
      id: '101',
      key: '_sale_price',
      code: 'unreadable',
      reason: '"cheap" is not a price, left empty',
      record: 'product 101 sale price',
    });
    expect(entity(report, 'variations').notes).toContainEqual({
      kind: 'warning',
      entity: 'variations',
      id: '151',
      key: '_sale_price',
      code: 'unreadable',
      reason: '"cheaper" is not a price, left empty',
      record: 'variation 151 sale price',
    });
    expect(entity(report, 'products').notes.some((n) => n.id === '151')).toBe(false);
    expect(entity(report, 'variations').notes.some((n) => n.id === '101')).toBe(false);
    // the warning lines the report prints are made from the same notes
    expect(entity(report, 'variations').warnings).toContain(
      'variation 151 sale price: "cheaper" is not a price, left empty',
    );
    expect(formatReport(report)).toContain('  products: product 101 sale price: "cheap" is not a price, left empty');
  });

  it('34.4 numeric meta that is not a number is reported (entity, id, meta key), the field left empty', async () => {
    expect(entity(report, 'vehicles').notes).toEqual(
      expect.arrayContaining([
        {
          kind: 'value',
          entity: 'vehicles',
          id: '300',
          key: '_mhm_rentiva_seats',
          code: 'unreadable',
          reason: '"five" is not a whole number; left empty',
        },
        {
          kind: 'value',
          entity: 'vehicles',
          id: '301',
          key: '_mhm_rentiva_doors',
          code: 'unreadable',
          reason: '"4 doors" is not a whole number; left empty',
        },
      ]),
    );
    expect(formatReport(report)).toContain(
      '  vehicles 300 _mhm_rentiva_seats: "five" is not a whole number; left empty',
    );
    const v = await one<{ seats: number | null; doors: number | null }>(
      t.platform.db,
      sql`SELECT (SELECT seats FROM rental_vehicles WHERE id = 300) AS seats, (SELECT doors FROM rental_vehicles WHERE id = 301) AS doors`,
    );
    expect(v).toEqual({ seats: null, doors: null });
  });

  it("34.3 a draft's dates (post_date_gmt zero) are its local post_date read on the site's clock, not as UTC", async () => {
    const p = await one<{ created: string; modified: string }>(
      t.platform.db,
      sql`SELECT to_char(date_created AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS created,
      to_char(date_modified AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS modified FROM rova_products WHERE id = 190`,
    );
    expect(p).toEqual({ created: '2026-02-01 09:00', modified: '2026-02-02 09:00' });
  });

  it('34.10 everything not imported has a line and a count in the report', () => {
    const counts = Object.fromEntries(report.notImported.map((n) => [n.what, n.count]));
    expect(counts).toMatchObject({
      'media library files (attachment): product images come over as their URLs, the files stay where WordPress keeps them': 3,
      'product reviews and their ratings (comments on products)': 1,
      'comments on blog posts and pages': 1,
      'blog posts and pages (post, page)': 1,
      'other post types (nav_menu_item, revision)': 2,
      'shipping zones with their locations and methods (woocommerce_shipping_zones)': 1,
      'tax rates (woocommerce_tax_rates)': 2,
      'tax settings (woocommerce_calc_taxes, woocommerce_prices_include_tax, woocommerce_tax_*)': 2,
      'product weights and dimensions (_weight, _length, _width, _height)': 1,
      'downloadable and virtual products (_downloadable, _virtual)': 1,
      'upsells and cross-sells (_upsell_ids, _crosssell_ids)': 1,
      'customer billing and shipping addresses (billing_*, shipping_* user meta): only the phone is imported': 1,
      "the rental plugin's API keys (mhm_rentiva_api_keys)": 2,
      'WooCommerce REST API keys (woocommerce_api_keys)': 1,
      'application logs (mhm_app_log)': 1,
    });
    expect(formatReport(report)).toContain('     2  tax rates (woocommerce_tax_rates)');
  });
});

describe('the customers step', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp();
  });
  afterAll(async () => t?.close());

  it('names a customer by its WordPress user id, never by its e-mail address', async () => {
    // users not imported: every customer made from a WordPress user is noted without its account link
    const r = await importWordPress(target(t), memorySource(), { only: ['customers'] });
    const c = entity(r, 'customers');
    expect(c.warnings).toContain('customer user:7: WordPress user 7 is not imported; the customer has no account link');
    expect(c.notes).toContainEqual({
      kind: 'warning',
      entity: 'customers',
      id: 'user:7',
      code: 'unlinked',
      reason: 'WordPress user 7 is not imported; the customer has no account link',
      record: 'customer user:7',
    });
    expect(JSON.stringify(c.notes)).not.toMatch(/@/);
  });
});

describe('a ledger row whose gross or commission does not read', () => {
  it('goes in as its net amount, the value reported with row id and column (the import does not stop)', () => {
    const n = new Notes();
    const plans = planLedgerRow(
      {
        id: 9,
        transaction_uuid: 'odd-gross',
        vendor_id: 6,
        booking_id: 'B-12',
        type: 'commission_credit',
        amount: '85.00',
        gross_amount: 'n/a',
        commission_amount: '1e400',
        currency: 'USD',
        status: 'pending',
        created_at: '2026-05-01 00:00:00',
      },
      n,
    );
    expect(plans.map((p) => p.lines)).toEqual([
      [
        { account: 'external', amount: -8500 },
        { account: 'vendor:0:pending', amount: 8500 },
      ],
    ]);
    expect(n.values).toEqual([
      { id: 'odd-gross', key: 'booking_id', reason: '"B-12" is not a whole number; left empty' },
      { id: 'odd-gross', key: 'gross_amount', reason: '"n/a" is not an amount; left out' },
      { id: 'odd-gross', key: 'commission_amount', reason: '"1e400" is not an amount; left out' },
    ]);
  });
});
