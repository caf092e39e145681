// @integration: the planner window is computed in the store time zone (Europe/Berlin, across the March 2027 DST change)
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one } from '../../../src/platform/db/types.js';
import type { TestApp } from '../../helpers/app.js';
import { API, makeAdminApp } from './fixtures.js';

let t: TestApp;
let admin: string;
let manager: string;
let vendorId: number;
const ids: Record<string, number> = {};

async function id(q: ReturnType<typeof sql>): Promise<number> {
  return (await one<{ id: number }>(t.platform.db, q))!.id;
}

async function booking(
  ref: string,
  vehicle: number,
  status: string,
  pickup: string,
  ret: string,
  extra: { deadline?: string; customer?: string } = {},
) {
  ids[ref] =
    await id(sql`INSERT INTO rental_bookings (reference, vehicle_id, customer_name, customer_email, customer_phone, kind, pickup_at, return_at, days, total, net_price,
                                                       status, payment_deadline, created_at)
    VALUES (${ref}, ${vehicle}, ${extra.customer ?? 'Ada L'}, 'ada@example.test', '', 'rental', ${pickup}::timestamptz, ${ret}::timestamptz, 1, 10, 10, ${status},
            ${extra.deadline ?? null}::timestamptz, '2027-01-01T00:00:00Z') RETURNING id::int AS id`);
}

beforeAll(async () => {
  t = await makeAdminApp({ STORE_TIMEZONE: 'Europe/Berlin', RENTAL_BUFFER_MINUTES: '90' });
  admin = (await t.userWithKey('administrator')).key;
  manager = (await t.userWithKey('shop_manager')).key;
  vendorId = (await t.userWithKey('vendor', ['read'], 'plan_vendor')).userId;
  await t.platform.db.execute(sql`UPDATE rova_users SET display_name = 'Plan Vendor Co' WHERE id = ${vendorId}`);
  const berlin = await id(
    sql`INSERT INTO rental_locations (name, slug) VALUES ('Berlin Airport', 'plan-ber') RETURNING id::int AS id`,
  );
  const munich = await id(
    sql`INSERT INTO rental_locations (name, slug) VALUES ('Munich Office', 'plan-muc') RETURNING id::int AS id`,
  );
  ids.loc_ber = berlin;
  ids.loc_muc = munich;
  const veh = (name: string, cat: string, loc: number | null, vendor: number | null, status = 'active') =>
    id(sql`INSERT INTO rental_vehicles (name, slug, status, price_per_day, category, location_id, vendor_id)
           VALUES (${name}, ${'plan-' + name.toLowerCase().replace(/ /g, '-')}, ${status}, 50, ${cat}, ${loc}, ${vendor}) RETURNING id::int AS id`);
  ids.golf = await veh('VW Golf', 'compact', berlin, null);
  ids.polo = await veh('VW Polo', 'economy', berlin, vendorId);
  ids.bmw = await veh('BMW X1', 'suv', munich, null, 'maintenance');
  ids.none = await veh('Spare Van', 'van', null, null);
  // window 2027-03-27 … 2027-03-29 in Berlin = [2027-03-26T23:00Z, 2027-03-29T22:00Z): the 28th is a 23-hour day
  await booking('P-IN-START', ids.golf, 'confirmed', '2027-03-25T10:00:00Z', '2027-03-27T09:00:00Z', {
    customer: 'Grace H',
  });
  await booking('P-HOLD', ids.golf, 'pending_payment', '2027-03-29T12:00:00Z', '2027-03-31T12:00:00Z', {
    deadline: '2099-01-01T00:00:00Z',
  });
  await booking('P-ENDS-AT-START', ids.polo, 'completed', '2027-03-24T10:00:00Z', '2027-03-26T23:00:00Z');
  await booking('P-STARTS-AT-END', ids.polo, 'completed', '2027-03-29T22:00:00Z', '2027-03-31T10:00:00Z');
  await booking('P-LAST-MINUTE', ids.polo, 'cancelled', '2027-03-29T21:59:00Z', '2027-03-30T10:00:00Z');
  await booking('P-DRAFT', ids.polo, 'draft', '2027-03-28T10:00:00Z', '2027-03-28T12:00:00Z');
  await booking('P-SUV', ids.bmw, 'in_progress', '2027-03-20T10:00:00Z', '2027-04-20T10:00:00Z');
});
afterAll(async () => t?.close());

const get = (qs: string, key = admin) =>
  t.inject({ method: 'GET', url: `${API}/admin/planner${qs}`, headers: key ? { 'x-rova-api-key': key } : {} });

describe('GET /admin/planner', () => {
  it('answers the vehicles and the bookings overlapping the window, the window in the store time zone across DST', async () => {
    const r = await get('?from=2027-03-27&to=2027-03-29');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body).toEqual({
      success: true,
      message: '',
      data: {
        from: '2027-03-27',
        to: '2027-03-29',
        timezone: 'Europe/Berlin',
        window_start: '2027-03-26T23:00:00.000Z',
        window_end: '2027-03-29T22:00:00.000Z',
        buffer_minutes: 90,
        vehicles: [
          {
            id: ids.golf,
            name: 'VW Golf',
            category: 'compact',
            status: 'active',
            location_id: ids.loc_ber,
            location_name: 'Berlin Airport',
            vendor_id: null,
            vendor_name: null,
          },
          {
            id: ids.polo,
            name: 'VW Polo',
            category: 'economy',
            status: 'active',
            location_id: ids.loc_ber,
            location_name: 'Berlin Airport',
            vendor_id: vendorId,
            vendor_name: 'Plan Vendor Co',
          },
          {
            id: ids.bmw,
            name: 'BMW X1',
            category: 'suv',
            status: 'maintenance',
            location_id: ids.loc_muc,
            location_name: 'Munich Office',
            vendor_id: null,
            vendor_name: null,
          },
          {
            id: ids.none,
            name: 'Spare Van',
            category: 'van',
            status: 'active',
            location_id: null,
            location_name: null,
            vendor_id: null,
            vendor_name: null,
          },
        ],
        vehicles_total: 4,
        vehicles_more: 0,
        bookings: [
          {
            id: ids['P-IN-START'],
            reference: 'P-IN-START',
            vehicle_id: ids.golf,
            kind: 'rental',
            status: 'confirmed',
            customer_name: 'Grace H',
            pickup_at: '2027-03-25T10:00:00.000Z',
            return_at: '2027-03-27T09:00:00.000Z',
            holds_slot: true,
            hold_expires_at: null,
            payment_status: 'unpaid',
            payment_due: true,
            buffer_minutes: 60,
          },
          {
            id: ids['P-HOLD'],
            reference: 'P-HOLD',
            vehicle_id: ids.golf,
            kind: 'rental',
            status: 'pending_payment',
            customer_name: 'Ada L',
            pickup_at: '2027-03-29T12:00:00.000Z',
            return_at: '2027-03-31T12:00:00.000Z',
            holds_slot: true,
            hold_expires_at: '2099-01-01T00:00:00.000Z',
            payment_status: 'unpaid',
            payment_due: true,
            buffer_minutes: 60,
          },
          {
            id: ids['P-SUV'],
            reference: 'P-SUV',
            vehicle_id: ids.bmw,
            kind: 'rental',
            status: 'in_progress',
            customer_name: 'Ada L',
            pickup_at: '2027-03-20T10:00:00.000Z',
            return_at: '2027-04-20T10:00:00.000Z',
            holds_slot: true,
            hold_expires_at: null,
            payment_status: 'unpaid',
            payment_due: true,
            buffer_minutes: 60,
          },
        ],
        blocks: [],
        filters: {
          locations: [
            { id: ids.loc_ber, name: 'Berlin Airport' },
            { id: ids.loc_muc, name: 'Munich Office' },
          ],
          categories: ['compact', 'economy', 'suv', 'van'],
          vendors: [{ id: vendorId, name: 'Plan Vendor Co' }],
        },
      },
    });
  });

  it('a one-day window over the 23-hour DST day', async () => {
    const d = (await get('?from=2027-03-28&to=2027-03-28')).json().data;
    expect([d.window_start, d.window_end]).toEqual(['2027-03-27T23:00:00.000Z', '2027-03-28T22:00:00.000Z']);
    expect(d.bookings.map((b: { reference: string }) => b.reference)).toEqual(['P-SUV']);
  });

  it('the autumn change: 2027-10-31 is a 25-hour day', async () => {
    const d = (await get('?from=2027-10-31&to=2027-10-31')).json().data;
    expect([d.window_start, d.window_end]).toEqual(['2027-10-30T22:00:00.000Z', '2027-10-31T23:00:00.000Z']);
    expect(d.bookings).toEqual([]);
  });

  it('filters by location, category and vendor; the filter choices stay whole', async () => {
    const byLoc = (await get(`?from=2027-03-27&to=2027-03-29&location=${ids.loc_ber}`)).json().data;
    expect(byLoc.vehicles.map((v: { id: number }) => v.id)).toEqual([ids.golf, ids.polo]);
    expect(byLoc.bookings.map((b: { reference: string }) => b.reference)).toEqual(['P-IN-START', 'P-HOLD']);
    expect(byLoc.filters.categories).toEqual(['compact', 'economy', 'suv', 'van']);
    const byCat = (await get('?from=2027-03-27&to=2027-03-29&category=suv')).json().data;
    expect(byCat.vehicles.map((v: { id: number }) => v.id)).toEqual([ids.bmw]);
    expect(byCat.bookings.map((b: { reference: string }) => b.reference)).toEqual(['P-SUV']);
    const byVendor = (
      await get(`?from=2027-03-27&to=2027-03-29&vendor=${vendorId}&category=economy&location=${ids.loc_ber}`)
    ).json().data;
    expect(byVendor.vehicles.map((v: { id: number }) => v.id)).toEqual([ids.polo]);
    expect(byVendor.bookings).toEqual([]);
    const byVendorClosed = (await get(`?from=2027-03-27&to=2027-03-29&vendor=${vendorId}&closed=true`)).json().data;
    expect(byVendorClosed.bookings.map((b: { reference: string }) => b.reference)).toEqual(['P-LAST-MINUTE']);
    const none = (await get('?from=2027-03-27&to=2027-03-29&category=limousine')).json().data;
    expect([none.vehicles, none.vehicles_total, none.vehicles_more, none.bookings]).toEqual([[], 0, 0, []]);
  });

  it('caps the vehicles at limit and counts the rest', async () => {
    const d = (await get('?from=2027-03-27&to=2027-03-29&limit=2')).json().data;
    expect(d.vehicles.map((v: { id: number }) => v.id)).toEqual([ids.golf, ids.polo]);
    expect([d.vehicles_total, d.vehicles_more]).toEqual([4, 2]);
    expect(d.bookings.map((b: { reference: string }) => b.reference)).toEqual(['P-IN-START', 'P-HOLD']);
  });

  it('closed=true adds cancelled, refunded and no-show bookings (a minute inside the window counts); never drafts', async () => {
    const d = (await get('?from=2027-03-27&to=2027-03-29&closed=true')).json().data;
    expect(d.bookings.map((b: { reference: string }) => b.reference)).toEqual([
      'P-IN-START',
      'P-HOLD',
      'P-LAST-MINUTE',
      'P-SUV',
    ]);
    expect(d.bookings[2]).toEqual({
      id: ids['P-LAST-MINUTE'],
      reference: 'P-LAST-MINUTE',
      vehicle_id: ids.polo,
      kind: 'rental',
      status: 'cancelled',
      customer_name: 'Ada L',
      pickup_at: '2027-03-29T21:59:00.000Z',
      return_at: '2027-03-30T10:00:00.000Z',
      holds_slot: false,
      hold_expires_at: null,
      payment_status: 'unpaid',
      payment_due: false,
      buffer_minutes: 60,
    });
    const off = (await get('?from=2027-03-27&to=2027-03-29&closed=false')).json().data;
    expect(off.bookings.map((b: { reference: string }) => b.reference)).toEqual(['P-IN-START', 'P-HOLD', 'P-SUV']);
  });

  it.each([
    ['', 'INVALID_PARAMS'],
    ['?from=2027-03-27', 'INVALID_PARAMS'],
    ['?from=2027-3-27&to=2027-03-29', 'INVALID_PARAMS'],
    ['?from=2027-02-30&to=2027-03-29', 'INVALID_PARAMS'],
    ['?from=0000-01-01&to=0000-01-02', 'INVALID_PARAMS'],
    ['?from=2027-03-27&to=tomorrow', 'INVALID_PARAMS'],
    ['?from=2027-03-29&to=2027-03-27', 'INVALID_DATE_RANGE'],
    ['?from=2027-01-01&to=2027-03-04', 'INVALID_DATE_RANGE'],
    ['?from=2027-03-27&to=2027-03-29&location=0', 'INVALID_PARAMS'],
    ['?from=2027-03-27&to=2027-03-29&vendor=99999999999999999999', 'INVALID_PARAMS'],
    ['?from=2027-03-27&to=2027-03-29&category=', 'INVALID_PARAMS'],
    ['?from=2027-03-27&to=2027-03-29&category=a%00b', 'INVALID_PARAMS'],
    ['?from=2027-03-27&to=2027-03-29&limit=501', 'INVALID_PARAMS'],
    ['?from=2027-03-27&to=2027-03-29&closed=maybe', 'INVALID_PARAMS'],
  ])('GET %s → 400 %s', async (qs, code) => {
    const r = await get(qs);
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ success: false, error_code: code, message: expect.any(String) });
  });

  it('bad dates say which parameter and why', async () => {
    const r = await get('?from=2027-02-30&to=2027-03-29');
    expect(r.json()).toEqual({
      success: false,
      error_code: 'INVALID_PARAMS',
      message: 'from must be a date written YYYY-MM-DD.',
      details: { params: { from: 'expected YYYY-MM-DD' } },
    });
    const long = await get('?from=2027-01-01&to=2027-03-04');
    expect(long.json()).toEqual({
      success: false,
      error_code: 'INVALID_DATE_RANGE',
      message: 'The window is too long: at most 62 days.',
      details: { from: '2027-01-01', to: '2027-03-04', days: 63, max_days: 62 },
    });
    const rev = await get('?from=2027-03-29&to=2027-03-27');
    expect(rev.json()).toEqual({
      success: false,
      error_code: 'INVALID_DATE_RANGE',
      message: 'from must not be after to.',
      details: { from: '2027-03-29', to: '2027-03-27' },
    });
  });

  it('62 days is the longest window', async () => {
    expect((await get('?from=2027-01-01&to=2027-03-03')).statusCode).toBe(200);
  });

  it('anonymous → 401, shop manager (no manage_options) → 403', async () => {
    const anon = await get('?from=2027-03-27&to=2027-03-29', '');
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ success: false, error_code: 'AUTH_REQUIRED', message: expect.any(String) });
    const mgr = await get('?from=2027-03-27&to=2027-03-29', manager);
    expect(mgr.statusCode).toBe(403);
    expect(mgr.json()).toMatchObject({ success: false, error_code: 'PERMISSION_DENIED', message: expect.any(String) });
  });
});
