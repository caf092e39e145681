import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, stopMessage } from '../../src/modules/import/wordpress/cli.js';
import type { ImportReport } from '../../src/modules/import/wordpress/report.js';
import { importWordPress, type ImportTarget } from '../../src/modules/import/wordpress/service.js';
import { fxRuntime } from '../../src/modules/fx/state.js';
import { one, rows } from '../../src/platform/db/types.js';
import { makeApp, type TestApp } from '../helpers/app.js';
import { WP_KEYS, type Row, type Writer } from '../fixtures/wordpress/fixture.js';
import { phpSerialize } from '../fixtures/wordpress/php-serialize.js';
import { memorySource } from '../fixtures/wordpress/memory-source.js';

// `rova import wordpress` on sites of other shapes than the plain fixture (test/fixtures/wordpress): the fixture's
// rows, changed per test, read in memory and imported into PGlite.

const target = (app: TestApp): ImportTarget => ({
  db: app.platform.db,
  transaction: (f) => app.platform.transaction(f),
  secret: app.config.secret,
});
const meta = (w: Writer, postId: number, key: string) =>
  w.postmeta.find((m) => Number(m.post_id) === postId && m.meta_key === key);
const setMeta = (w: Writer, postId: number, key: string, value: string) => {
  const m = meta(w, postId, key);
  if (m) m.meta_value = value;
  else w.meta(postId, key, value);
};
const option = (w: Writer, name: string, value: string) => {
  const o = w.options.find((x) => x.option_name === name);
  if (o) o.option_value = value;
  else w.options.push({ option_name: name, option_value: value });
};
const entity = (r: ImportReport, name: string) => r.entities.find((e) => e.entity === name)!;

const TEN_MB_SKU = `SKU-${'Q'.repeat(10 * 1024 * 1024)}`;
const LONG_LOGIN = randomBytes(12_000).toString('hex'); // a login PostgreSQL cannot index (the statement is refused)
const LONG_LOGIN_EMAIL = 'refused.login@fixture.test';
let longLoginHash = '';

/** The plain fixture plus every 4.x shape below (one import, many checks). */
function shaped4x(w: Writer, extra: Map<string, Row[]>): void {
  // 34.3: an Istanbul site; a booking written without timestamps across the 2015 DST change (+02 → +03 on 29 March)
  option(w, 'timezone_string', 'Europe/Istanbul');
  option(w, 'gmt_offset', '3');
  w.post(
    480,
    'vehicle_booking',
    'Booking #480',
    'publish',
    { post_date: '2015-03-01 08:00:00' },
    {
      _mhm_status: 'completed',
      _mhm_vehicle_id: '300',
      _mhm_pickup_date: '2015-03-28',
      _mhm_pickup_time: '10:00',
      _mhm_dropoff_date: '2015-03-30',
      _mhm_dropoff_time: '10:00',
      _mhm_rental_days: '2',
      _mhm_total_price: '90.00',
      _mhm_customer_email: 'dst@example.org',
      _mhm_customer_name: 'Yaz Saati',
      _mhm_payment_status: 'paid',
      _mhm_payment_type: 'full',
    },
  );
  // 34.4: blocked dates as the meta box saves them (JSON text), and one that does not read
  setMeta(w, 301, '_mhm_blocked_dates', '["2026-12-31","2026-12-30"]');
  setMeta(w, 302, '_mhm_blocked_dates', '["2026-01-01"');
  // 34.5: a 4.33 site charged every add-on per day
  option(w, 'mhm_rentiva_plugin_version', '4.33.0');
  // 34.6: the currency plugin's fixed prices (one entry that does not fit)
  setMeta(w, 100, '_mhmcs_fixed_prices', '{"EUR":"89,90","TRY":"3000"}');
  setMeta(w, 152, '_mhmcs_fixed_prices', '{"EUR":"11.00","eur":"1"}');
  // 34.8: a Turkish term (slug kirmizi), a custom attribute with an accented name, attribute orders, the price format,
  // a trashed product's desired slug, accented logins
  const red = w.terms.find((t) => Number(t.term_id) === 30)!;
  Object.assign(red, { name: 'Kırmızı', slug: 'kirmizi' });
  setMeta(w, 151, 'attribute_pa_color', 'kirmizi');
  w.termmeta.push(
    { term_id: 30, meta_key: 'order', meta_value: '3' },
    { term_id: 31, meta_key: 'order', meta_value: '1' },
    { term_id: 32, meta_key: 'order', meta_value: '2' },
  );
  const attrs = {
    pa_color: { name: 'pa_color', value: '', position: 0, is_visible: 1, is_variation: 1, is_taxonomy: 1 },
    pa_size: { name: 'pa_size', value: '', position: 1, is_visible: 1, is_variation: 1, is_taxonomy: 1 },
    material: {
      name: 'Material',
      value: 'Plastic | Fabric',
      position: 2,
      is_visible: 1,
      is_variation: 0,
      is_taxonomy: 0,
    },
    vizor: { name: 'Vizör', value: 'Açık | Kapalı', position: 3, is_visible: 1, is_variation: 1, is_taxonomy: 0 },
  };
  setMeta(w, 150, '_product_attributes', phpSerialize(attrs));
  setMeta(w, 151, 'attribute_vizor', 'Açık');
  option(w, 'woocommerce_currency_pos', 'right_space');
  option(w, 'woocommerce_price_decimal_sep', ',');
  option(w, 'woocommerce_price_thousand_sep', '.');
  option(w, 'woocommerce_price_num_decimals', '3');
  setMeta(w, 106, '_wp_desired_post_slug', 'car-seven');
  w.users.push({
    ID: 41,
    user_login: 'Çağrı Öz',
    user_pass: '',
    user_nicename: 'cagri',
    user_email: 'cagri@fixture.test',
    user_registered: '2025-01-01 00:00:00',
    display_name: 'Çağrı',
  });
  w.users.push({
    ID: 42,
    user_login: 'Şule<b>',
    user_pass: '',
    user_nicename: 'sule',
    user_email: 'sule@fixture.test',
    user_registered: '2025-01-01 00:00:00',
    display_name: 'Şule',
  });
  // 37.6: hostile values — a timestamp beyond the date range, a NUL in a title, a 10 MB SKU, a login PostgreSQL refuses
  setMeta(w, 401, '_mhm_start_ts', '99999999999999');
  w.posts.find((p) => Number(p.ID) === 101)!.post_title = 'Renault\u0000 Clio';
  setMeta(w, 102, '_sku', TEN_MB_SKU);
  const victim = w.users.find((u) => Number(u.ID) === 8)!;
  Object.assign(victim, { user_login: LONG_LOGIN, user_email: LONG_LOGIN_EMAIL });
  longLoginHash = String(victim.user_pass);
  void extra;
}

describe('a 4.x site of other shapes (Istanbul, JSON blocked dates, 4.33 add-ons, fixed prices, WooCommerce details, hostile values)', () => {
  let t: TestApp;
  let report: ImportReport;
  let key = '';

  beforeAll(async () => {
    t = await makeApp({ env: { STORE_TIMEZONE: '' } });
    // a Rova user who already has the login WordPress would store for "Çağrı Öz"
    await t.platform.db.execute(
      sql`INSERT INTO rova_users (id, login, email, role) VALUES (900, 'Cagri Oz', 'someone.else@rova.test', 'customer')`,
    );
    report = await importWordPress(target(t), memorySource(shaped4x), { wpKeys: WP_KEYS });
    await fxRuntime(t.platform).changed();
    key = (await t.userWithKey('administrator', ['read'])).key;
  }, 240_000);
  afterAll(async () => t?.close());

  it("34.3 site-local dates are read on the site's clock (DST-crossing booking; vendor approval); the store time zone is the site's", async () => {
    const b = await one<{ pickup_at: string; return_at: string }>(
      t.platform.db,
      sql`SELECT to_char(pickup_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS pickup_at,
      to_char(return_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS return_at FROM rental_bookings WHERE id = 480`,
    );
    expect(b).toEqual({ pickup_at: '2015-03-28 08:00', return_at: '2015-03-30 07:00' });
    const v = await one<{ at: string }>(
      t.platform.db,
      sql`SELECT to_char(approved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at FROM rental_vendors WHERE user_id = 4`,
    );
    expect(v!.at).toBe('2024-02-05 07:00'); // +03 all year since 2016
    expect(
      (await one<{ value: unknown }>(t.platform.db, sql`SELECT value FROM rova_options WHERE name = 'store_timezone'`))!
        .value,
    ).toBe('Europe/Istanbul');
    expect(report.site).toEqual({ pluginVersion: '4.33.0', pluginGeneration: '4', timeZone: 'Europe/Istanbul' });
  });

  it('34.4 blocked dates saved as JSON text are read; an unreadable value is a warning with entity, id, key and reason', async () => {
    const got = await rows<{ id: number; blocked_dates: string[] }>(
      t.platform.db,
      sql`SELECT id::int, blocked_dates FROM rental_vehicles WHERE id IN (300, 301, 302) ORDER BY id`,
    );
    expect(got).toEqual([
      { id: 300, blocked_dates: ['2026-12-24', '2026-12-25'] },
      { id: 301, blocked_dates: ['2026-12-30', '2026-12-31'] },
      { id: 302, blocked_dates: [] },
    ]);
    expect(entity(report, 'vehicles').values).toEqual([
      { id: '302', key: '_mhm_blocked_dates', reason: 'looks like JSON but does not parse; left out' },
    ]);
    expect(formatReport(report)).toContain(
      '  vehicles 302 _mhm_blocked_dates: looks like JSON but does not parse; left out',
    );
  });

  it("34.5 a 4.33 site's add-ons are priced per day (its per-booking setting did not exist yet)", async () => {
    const lines = await rows<{ code: string | null; amount: string }>(
      t.platform.db,
      sql`SELECT l.code, l.amount::text FROM rental_order_lines l JOIN rental_orders o ON o.id = l.order_id
      WHERE o.booking_id = 400 AND l.kind = 'addon' ORDER BY l.code`,
    );
    expect(lines).toEqual([
      { code: 'wp-addon-350', amount: '10.00' },
      { code: 'wp-addon-351', amount: '40.00' },
    ]);
  });

  it('34.6 per-product fixed prices come over; an entry that is not a currency and a price is reported', async () => {
    const got = await rows<{ id: number; f: Record<string, string> }>(
      t.platform.db,
      sql`SELECT id::int, rova_fixed_prices AS f FROM rova_products WHERE id IN (100, 152) ORDER BY id`,
    );
    expect(got).toEqual([
      { id: 100, f: { EUR: '89.90', TRY: '3000' } },
      { id: 152, f: { EUR: '11.00' } },
    ]);
    expect(entity(report, 'variations').values).toContainEqual({
      id: '152',
      key: '_mhmcs_fixed_prices',
      reason: 'entry eur = "1" is not a currency code and a price; left out',
    });
    const eur = await t.inject({
      method: 'POST',
      url: '/wp-json/rova-fx/v1/convert',
      payload: { currency: 'EUR', product_ids: [100] },
    });
    expect(JSON.stringify(eur.json())).toContain('89');
  });

  it('34.8 variation values are term slugs, custom attributes keep their names, options follow order_by, price format, trashed slug', async () => {
    const v = (
      await t.inject({
        method: 'GET',
        url: '/wp-json/wc/v3/products/150/variations/151',
        headers: { 'x-rova-api-key': key },
      })
    ).json() as Record<string, unknown>;
    expect(v.attributes).toEqual([
      { id: 1, name: 'Color', option: 'Kırmızı' },
      { id: 2, name: 'Size', option: 'S' },
      { id: 0, name: 'Vizör', option: 'Açık' },
    ]);
    expect(String(v.permalink)).toMatch(
      /\/product\/child-seat\/\?attribute_pa_color=kirmizi&attribute_pa_size=s&attribute_viz.r=A%C3%A7%C4%B1k$/,
    );
    const p = (
      await t.inject({ method: 'GET', url: '/wp-json/wc/v3/products/150', headers: { 'x-rova-api-key': key } })
    ).json() as { attributes: { name: string; options: string[] }[] };
    // color: menu_order (the terms' order meta 3, 1, 2); size: name (WordPress linked S before M)
    expect(p.attributes.map((a) => [a.name, a.options])).toEqual([
      ['Color', ['Blue', '黒', 'Kırmızı']],
      ['Size', ['M', 'S']],
      ['Material', ['Plastic', 'Fabric']],
      ['Vizör', ['Açık', 'Kapalı']],
    ]);
    expect(
      (await one<{ value: unknown }>(
        t.platform.db,
        sql`SELECT value FROM rova_options WHERE name = 'store_price_format'`,
      ))!.value,
    ).toEqual({ position: 'right_space', decimals: 3, decimal_sep: ',', thousand_sep: '.' });
    const egea = (
      await t.inject({ method: 'GET', url: '/wp-json/wc/v3/products/100', headers: { 'x-rova-api-key': key } })
    ).json() as { price_html: string };
    expect(egea.price_html).toContain('80,000');
    expect((await one<{ slug: string }>(t.platform.db, sql`SELECT slug FROM rova_products WHERE id = 106`))!.slug).toBe(
      'car-seven',
    );
  });

  it('34.8 logins are compared the way WordPress stores them (sanitize_user)', async () => {
    expect(entity(report, 'users').skipped).toContainEqual({
      id: '41',
      reason: 'Rova user 900 (Cagri Oz) already has this login or e-mail; left as it is',
    });
    expect((await one<{ login: string }>(t.platform.db, sql`SELECT login FROM rova_users WHERE id = 42`))!.login).toBe(
      'Sule',
    );
    expect(entity(report, 'users').values).toContainEqual({
      id: '42',
      key: 'user_login',
      reason: 'sanitised the way WordPress does: imported as "Sule"',
    });
  });

  it('34.10 what is not imported is counted in the report', () => {
    const counts = Object.fromEntries(report.notImported.map((n) => [n.what, n.count]));
    expect(counts['add-on posts (vehicle_addon): only their prices, as booking price lines']).toBe(2);
    expect(counts['WooCommerce orders and refunds (shop_order, shop_order_refund)']).toBe(0);
    expect(formatReport(report)).toContain(
      '     2  add-on posts (vehicle_addon): only their prices, as booking price lines',
    );
  });

  it('37.6 each hostile value skips or cleans its record, with entity, id and reason; the rest imports; no value in the output', async () => {
    expect(entity(report, 'bookings').skipped).toContainEqual({
      id: '401',
      reason: '_mhm_start_ts: timestamp 99999999999999 is beyond the range of dates',
    });
    expect(entity(report, 'products').skipped).toContainEqual({
      id: '102',
      reason: `sku is ${TEN_MB_SKU.length} characters long (the import takes at most 1000000)`,
    });
    expect(entity(report, 'products').values).toContainEqual({
      id: '101',
      key: 'name',
      reason: 'NUL characters removed',
    });
    expect((await one<{ name: string }>(t.platform.db, sql`SELECT name FROM rova_products WHERE id = 101`))!.name).toBe(
      'Renault Clio',
    );
    const refused = entity(report, 'users').skipped.find((s) => s.id === '8');
    expect(refused?.reason).toMatch(/^Rova's database refused it \(SQLSTATE 54000\): index row (size|requires)/);
    // the rest came in: every other product, booking and user the plain fixture imports
    expect(
      (await one<{ n: number }>(
        t.platform.db,
        sql`SELECT count(*)::int AS n FROM rova_products WHERE id BETWEEN 100 AND 119`,
      ))!.n,
    ).toBe(19);
    expect(
      (await one<{ n: number }>(
        t.platform.db,
        sql`SELECT count(*)::int AS n FROM rental_bookings WHERE id BETWEEN 400 AND 417`,
      ))!.n,
    ).toBe(17);
    const out = formatReport(report) + JSON.stringify(report);
    expect(out.includes('Q'.repeat(1000))).toBe(false);
    expect(out.includes(longLoginHash)).toBe(false);
    expect(out.includes(LONG_LOGIN)).toBe(false);
    // the user's e-mail is in no line about the refused user (the customers step still names the customer it made from it)
    expect(JSON.stringify(entity(report, 'users')).includes(LONG_LOGIN_EMAIL)).toBe(false);
  });
});

describe('other sites', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({ env: { STORE_TIMEZONE: '' } });
  });
  afterAll(async () => t?.close());

  it('34.3 a site with only gmt_offset: site-local times at that offset, the store zone Etc/GMT-3', async () => {
    const src = memorySource((w) => {
      option(w, 'timezone_string', '');
      option(w, 'gmt_offset', '3');
    });
    const r = await importWordPress(target(t), src, { only: ['settings', 'users', 'vendors'], wpKeys: WP_KEYS });
    expect(r.site!.timeZone).toBe('UTC+3');
    expect(
      (await one<{ value: unknown }>(t.platform.db, sql`SELECT value FROM rova_options WHERE name = 'store_timezone'`))!
        .value,
    ).toBe('Etc/GMT-3');
    const v = await one<{ at: string }>(
      t.platform.db,
      sql`SELECT to_char(approved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS at FROM rental_vendors WHERE user_id = 4`,
    );
    expect(v!.at).toBe('2024-02-05 07:00');
  });

  it('34.5 a 4.36 site prices a per-booking add-on once', async () => {
    const src = memorySource((w) => option(w, 'mhm_rentiva_plugin_version', '4.36.0'));
    await importWordPress(target(t), src, {
      only: ['users', 'customers', 'locations', 'routes', 'vehicles', 'bookings'],
    });
    const lines = await rows<{ code: string | null; amount: string }>(
      t.platform.db,
      sql`SELECT l.code, l.amount::text FROM rental_order_lines l JOIN rental_orders o ON o.id = l.order_id
      WHERE o.booking_id = 400 AND l.kind = 'addon' ORDER BY l.code`,
    );
    expect(lines).toEqual([
      { code: 'wp-addon-350', amount: '10.00' },
      { code: 'wp-addon-351', amount: '20.00' },
    ]);
  });
});

describe('a 6.x site (mhmrentiva_* post types and meta keys)', () => {
  let t: TestApp;
  let report: ImportReport;
  beforeAll(async () => {
    t = await makeApp();
    const to6 = (w: Writer) => {
      option(w, 'mhmrentiva_plugin_version', '6.0.2');
      const renamed: Record<string, string> = {
        vehicle: 'mhmrentiva_vehicle',
        vehicle_booking: 'mhmrentiva_booking',
        mhm_message: 'mhmrentiva_message',
      };
      const ids = new Set<number>();
      for (const p of w.posts) {
        const to = renamed[String(p.post_type)];
        if (to) {
          p.post_type = to;
          ids.add(Number(p.ID));
        }
      }
      for (const m of w.postmeta) {
        if (!ids.has(Number(m.post_id))) continue;
        m.meta_key = String(m.meta_key)
          .replace(/^_mhm_rentiva_/, '_mhmrentiva_')
          .replace(/^_mhm_/, '_mhmrentiva_');
      }
    };
    report = await importWordPress(target(t), memorySource(to6), {
      only: ['users', 'customers', 'locations', 'routes', 'vehicles', 'bookings', 'messages'],
    });
  }, 240_000);
  afterAll(async () => t?.close());

  it('imports vehicles, bookings and messages as a 4.x site does, and says which version it read', async () => {
    expect(report.site).toEqual({ pluginVersion: '6.0.2', pluginGeneration: '6', timeZone: 'UTC' });
    expect([
      entity(report, 'vehicles').created,
      entity(report, 'bookings').created,
      entity(report, 'messages').created,
    ]).toEqual([8, 19, 5]);
    const v = await one<{ price_per_day: string; brand: string; status: string }>(
      t.platform.db,
      sql`SELECT price_per_day::text, brand, status FROM rental_vehicles WHERE id = 304`,
    );
    expect(v).toEqual({ price_per_day: '55.00', brand: 'Dacia', status: 'maintenance' });
    const b = await one<{ status: string; total: string }>(
      t.platform.db,
      sql`SELECT status, total::text FROM rental_bookings WHERE id = 403`,
    );
    expect(b).toEqual({ status: 'pending_payment', total: '106.00' });
    expect(formatReport(report)).toContain('Read: MHM Rentiva 6.0.2 (6.x names), site time zone UTC.');
  });
});

describe('37.6 errors carry no parameters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp();
  });
  afterAll(async () => t?.close());

  it("a refused statement's error (message, stack, what a log line shows) holds its text, not its values", async () => {
    const secret = `hash-${randomBytes(8).toString('hex')}`;
    let caught: unknown;
    try {
      await t.platform.db.execute(
        sql`INSERT INTO rova_users (id, login, email, role, password_hash) VALUES (1, ${'x'}, ${'y@z.test'}, ${'nobody'}, ${secret})`,
      );
    } catch (err) {
      caught = err;
    }
    const e = caught as Error & { params?: unknown[]; cause?: { detail?: string } };
    expect(e.message).toMatch(/^Failed query: insert into rova_users .*\n\(4 parameters, not shown\)$/is);
    for (const text of [
      e.message,
      String(e.stack),
      JSON.stringify({ ...e, message: e.message, stack: e.stack }),
      JSON.stringify(e.cause ?? {}),
    ]) {
      expect(text.includes(secret)).toBe(false);
      expect(text.includes('y@z.test')).toBe(false);
    }
  });

  it('a dry run that stops says that nothing was written', () => {
    expect(stopMessage(new Error('the source went away'), true)).toBe(
      'rova: import stopped: the source went away\nDry run: nothing was written.\n',
    );
    expect(stopMessage(new Error('the source went away'), false)).toBe(
      'rova: import stopped: the source went away\nWhat was imported before stays; run the same command again to go on.\n',
    );
  });
});
