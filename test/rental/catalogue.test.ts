import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers/app.js';
import { rows } from '../../src/platform/db/types.js';
import { rentalModule } from '../../src/modules/rental/module.js';
import { V1 } from './helpers.js';

describe('locations, vehicles, rules, routes, customers CRUD + demo seed', () => {
  let t: TestApp;
  let h: Record<string, string>;
  beforeAll(async () => {
    t = await makeApp({ env: { RENTAL_WRITE_RATE_LIMIT: '100000', RENTAL_PUBLIC_RATE_LIMIT: '100000' } });
    h = { 'x-rova-api-key': (await t.userWithKey('administrator')).key };
  });
  afterAll(async () => t?.close());
  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.inject({ method, url: V1 + url, headers: h, ...(payload ? { payload } : {}) });

  it('GET /locations: active only, type and case-insensitive city filters', async () => {
    const a = await req('POST', '/locations', { name: 'Airport', type: 'airport', city: 'İzmir' });
    expect(a.statusCode).toBe(201);
    await req('POST', '/locations', { name: 'Hotel', type: 'hotel', city: 'Antalya', allow_transfer: false });
    const off = (await req('POST', '/locations', { name: 'Closed', type: 'office', city: 'Antalya' })).json().data.id;
    expect((await req('PUT', `/locations/${off}`, { is_active: false })).json().data.is_active).toBe(false);
    const pub = (q: string) =>
      t
        .inject({ method: 'GET', url: `${V1}/locations${q}` })
        .then((r) => r.json().data.items.map((x: { name: string }) => x.name));
    expect(await pub('?city=antalya')).toEqual(['Hotel']);
    expect(await pub('?city=ANTALYA&type=hotel')).toEqual(['Hotel']);
    expect(await pub('?type=transfer')).toEqual(['Airport']);
    expect(await pub('?city=Nowhere')).toEqual([]);
    const page = (await t.inject({ method: 'GET', url: `${V1}/locations?per_page=1&page=2` })).json().data;
    expect(page).toMatchObject({ total: 2, total_pages: 2, page: 2, per_page: 1 });
    expect(page.items).toHaveLength(1);
    expect((await req('DELETE', `/locations/${off}`)).json().data).toEqual({ id: off, deleted: true });
    expect((await req('DELETE', `/locations/${off}`)).json().error_code).toBe('RESOURCE_NOT_FOUND');
  });

  it('vehicles, pricing rules, transfer routes, customers', async () => {
    const v = await req('POST', '/vehicles', {
      name: 'Test Car',
      price_per_day: 42.5,
      category: 'economy',
      features: ['ac'],
      blocked_dates: ['2030-01-02'],
    });
    expect(v.statusCode).toBe(201);
    expect(v.json().data).toMatchObject({
      price_per_day: 42.5,
      vendor_id: null,
      status: 'active',
      blocked_dates: ['2030-01-02'],
    });
    const id = v.json().data.id;
    expect((await req('PUT', `/vehicles/${id}`, { status: 'maintenance' })).json().data.status).toBe('maintenance');
    expect(
      (await req('POST', '/vehicles', { name: 'Bad', price_per_day: 1, location_id: 999999 })).json().error_code,
    ).toBe('INVALID_PARAMS');
    expect((await req('GET', '/vehicles/999999')).json().error_code).toBe('VEHICLE_NOT_FOUND');
    expect((await req('GET', '/vehicles?status=maintenance')).json().data.total).toBe(1);
    expect(
      (await req('POST', '/pricing-rules', { name: 'S', kind: 'season', multiplier: 1.2 })).json().error_code,
    ).toBe('INVALID_PARAMS');
    const r = await req('POST', '/pricing-rules', { name: 'Tax', kind: 'tax', percent: 18 });
    expect(r.json().data).toMatchObject({ kind: 'tax', scope: 'global', percent: 18 });
    const tr = await req('POST', '/transfer-routes', {
      origin: 'A',
      destination: 'B',
      distance_km: 10,
      pricing: 'calculated',
      base_price: 5,
      price_per_km: 2,
      min_price: 30,
    });
    expect(tr.json().data.price).toBe(30);
    expect((await req('PUT', `/transfer-routes/${tr.json().data.id}`, { distance_km: 20 })).json().data.price).toBe(45);
    const c = await req('POST', '/customers', { name: 'Bo', email: 'bo@example.test' });
    expect(c.statusCode).toBe(201);
    expect((await req('POST', '/customers', { name: 'Bo2', email: 'BO@example.test' })).json().error_code).toBe(
      'STATE_CONFLICT',
    );
    expect((await req('PUT', `/customers/${c.json().data.id}`, { phone: '+1 555' })).json().data.phone).toBe('+1 555');
    expect((await req('DELETE', `/vehicles/${id}`)).json().data.deleted).toBe(true);
  });

  it('demo seed: deterministic counts, every status, consistent prices, idempotent; bulk bookings', async () => {
    await rentalModule.seedDemo!(t.platform);
    await rentalModule.seedDemo!(t.platform);
    const [c] = await rows<Record<string, string>>(
      t.platform.db,
      sql`SELECT
      (SELECT count(*) FROM rental_vehicles WHERE slug LIKE 'demo-%') AS v,
      (SELECT count(*) FROM rental_vehicles WHERE slug LIKE 'demo-%' AND status = 'maintenance') AS m,
      (SELECT count(DISTINCT status) FROM rental_bookings WHERE source = 'demo') AS s,
      (SELECT count(*) FROM rental_bookings WHERE source = 'demo') AS b,
      (SELECT count(*) FROM rental_bookings WHERE source = 'demo' AND kind = 'transfer') AS tr,
      (SELECT count(*) FROM rental_bookings WHERE source = 'demo' AND total <> net_price + tax) AS bad`,
    );
    expect(Number(c!.v)).toBe(20);
    expect(Number(c!.m)).toBe(1);
    expect(Number(c!.s)).toBe(9);
    expect(Number(c!.b)).toBeGreaterThanOrEqual(150);
    expect(Number(c!.tr)).toBeGreaterThan(0);
    expect(Number(c!.bad)).toBe(0);
    const [d] = await rows<Record<string, string>>(
      t.platform.db,
      sql`SELECT
      (SELECT count(*) FROM rental_locations WHERE slug IN ('ist-airport','ist-sabiha','ist-taksim-hotel','ist-office','ayt-airport','ayt-port','izm-airport','izm-center')) AS l,
      (SELECT count(DISTINCT city) FROM rental_locations WHERE slug LIKE 'ist-%' OR slug LIKE 'ayt-%' OR slug LIKE 'izm-%') AS cities,
      (SELECT count(DISTINCT type) FROM rental_locations WHERE slug LIKE 'ist-%' OR slug LIKE 'ayt-%' OR slug LIKE 'izm-%') AS types,
      (SELECT count(*) FROM rental_transfer_routes WHERE origin IN ('Istanbul Airport', 'Antalya Airport', 'Izmir Airport')) AS routes,
      (SELECT count(*) FROM rental_customers WHERE email LIKE '%@example.com') AS customers,
      (SELECT count(*) FROM rental_bookings WHERE source = 'demo' AND pickup_at < now() - interval '184 days') AS too_old,
      (SELECT count(*) FROM rental_bookings WHERE source = 'demo' AND pickup_at < now() - interval '150 days') AS early`,
    );
    expect(Number(d!.l)).toBe(8);
    expect(Number(d!.cities)).toBe(3);
    expect(Number(d!.types)).toBeGreaterThanOrEqual(4);
    expect(Number(d!.routes)).toBe(3);
    expect(Number(d!.customers)).toBe(60);
    expect(Number(c!.b)).toBeLessThanOrEqual(220);
    expect(Number(d!.too_old)).toBe(0);
    expect(Number(d!.early)).toBeGreaterThan(0);
    const t0 = Date.now();
    await rentalModule.seedBookings!(t.platform, 5000);
    expect(Date.now() - t0).toBeLessThan(20_000);
    const [n] = await rows<{ n: string }>(
      t.platform.db,
      sql`SELECT count(*) AS n FROM rental_bookings WHERE source = 'bulk'`,
    );
    expect(Number(n!.n)).toBe(5000);
  });
});
