// @integration: the dashboard aggregates by period in the store time zone in SQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stats } from '../../../src/modules/rental/dashboard/service.js';
import { delta } from '../../../src/modules/rental/shared/delta.js';
import type { TestApp } from '../../helpers/app.js';
import { API, insertBooking, insertCustomer, insertReportFixture, insertVehicle, makeAdminApp } from './fixtures.js';

describe('delta (month-over-month card change)', () => {
  it.each([
    [3, 2, { format: 'pct', value: 50, direction: 'up' }],
    [2, 0, { format: 'abs', value: 2, direction: 'up' }],
    [0, 0, { format: 'neutral', value: 0, direction: 'none' }],
    [1, 1, { format: 'pct', value: 0, direction: 'none' }],
    [50, 100, { format: 'pct', value: -50, direction: 'down' }],
    [0, 4, { format: 'pct', value: -100, direction: 'down' }],
    ['400.50', '200.00', { format: 'pct', value: 101, direction: 'up' }], // money rounded to 401 vs 200 first
  ])('%s vs %s', (cur, prev, want) => {
    expect(delta(cur, prev)).toEqual(want);
  });
});

describe('dashboard', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await makeAdminApp({ STORE_TIMEZONE: 'Europe/Istanbul', STORE_CURRENCY: 'TRY' });
    key = (await t.userWithKey('administrator')).key;
    await insertReportFixture(t.platform.db);
  });
  afterAll(async () => t?.close());
  const get = (path: string) => t.inject({ method: 'GET', url: `${API}${path}`, headers: { 'x-rova-api-key': key } });

  it('stats for April 2026 in Europe/Istanbul: B1 (2026-03-31T22:30Z) counts in April', async () => {
    const s = await stats({
      db: t.platform.db,
      timezone: 'Europe/Istanbul',
      currency: 'TRY',
      now: new Date('2026-04-15T12:00:00Z'),
    });
    expect(s).toMatchObject({
      month: '2026-04',
      total_bookings: 6, // every non-draft booking
      bookings_this_month: 5, // B1 B3 B4 B5 B7
      bookings_last_month: 1, // B2
      revenue: 600.5, // B1 100 + B2 200 + B5 300.50
      revenue_this_month: 400.5,
      revenue_last_month: 200,
      active_vehicles: 2,
      active_vehicles_last_month: 2,
      customers: 3, // A, B, C booked in April
      customers_last_month: 1, // B
      timezone: 'Europe/Istanbul',
      currency: 'TRY',
    });
    expect(s.deltas).toEqual({
      total_bookings: { format: 'pct', value: 400, direction: 'up' },
      revenue: { format: 'pct', value: 101, direction: 'up' },
      active_vehicles: { format: 'pct', value: 0, direction: 'none' },
      customers: { format: 'pct', value: 200, direction: 'up' },
    });
    expect(s.status_breakdown).toEqual([
      { status: 'completed', label: 'Completed', count: 2, dot: '#8c8f94' },
      { status: 'cancelled', label: 'Cancelled', count: 1, dot: '#d63638' },
      { status: 'confirmed', label: 'Confirmed', count: 1, dot: '#2271b1' },
      { status: 'in_progress', label: 'In Progress', count: 1, dot: '#00a32a' },
      { status: 'pending', label: 'Pending', count: 1, dot: '#dba617' },
    ]);
    expect(s.status_breakdown.reduce((n, r) => n + r.count, 0)).toBe(s.total_bookings);
  });

  it('the same data in UTC puts B1 in March', async () => {
    const s = await stats({
      db: t.platform.db,
      timezone: 'UTC',
      currency: 'TRY',
      now: new Date('2026-04-15T12:00:00Z'),
    });
    expect(s).toMatchObject({
      bookings_this_month: 4,
      bookings_last_month: 2,
      revenue_this_month: 300.5,
      revenue_last_month: 300,
      customers: 3,
      customers_last_month: 2,
    });
    expect(s.deltas.total_bookings).toEqual({ format: 'pct', value: 100, direction: 'up' });
    expect(s.deltas.customers).toEqual({ format: 'pct', value: 50, direction: 'up' }); // A B C vs A B
  });

  it('in May: April is last month, nothing this month', async () => {
    const s = await stats({
      db: t.platform.db,
      timezone: 'Europe/Istanbul',
      currency: 'TRY',
      now: new Date('2026-05-01T00:30:00Z'),
    });
    expect(s.month).toBe('2026-05');
    expect(s.deltas.total_bookings).toEqual({ format: 'pct', value: -100, direction: 'down' });
    expect(s.deltas.revenue).toEqual({ format: 'pct', value: -100, direction: 'down' });
  });

  it('GET /dashboard/stats answers the envelope with the all-time figures', async () => {
    const r = await get('/dashboard/stats');
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ success: true, message: expect.any(String) });
    expect(body.data).toMatchObject({
      total_bookings: 6,
      revenue: 600.5,
      active_vehicles: 2,
      timezone: 'Europe/Istanbul',
      currency: 'TRY',
    });
    expect(Object.keys(body.data.deltas).sort()).toEqual(['active_vehicles', 'customers', 'revenue', 'total_bookings']);
  });

  it('GET /dashboard/recent-bookings: newest created first, paginated, drafts excluded', async () => {
    const r = await get('/dashboard/recent-bookings?per_page=4');
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d).toMatchObject({ total: 6, total_pages: 2, page: 1, per_page: 4 });
    expect(d.items.map((i: { created_at: string }) => i.created_at)).toEqual([
      '2026-04-05T09:00:00.000Z',
      '2026-04-04T21:30:00.000Z',
      '2026-04-03T12:00:00.000Z',
      '2026-04-03T10:00:00.000Z',
    ]);
    expect(d.items[0]).toMatchObject({
      status: 'completed',
      status_label: 'Completed',
      customer_name: 'Burak Demir',
      vehicle_name: 'Fiat Egea',
      total: 300.5,
    });
    const p2 = (await get('/dashboard/recent-bookings?per_page=4&page=2')).json().data;
    expect(p2.items).toHaveLength(2);
    const past = (await get('/dashboard/recent-bookings?page=99')).json().data;
    expect(past).toMatchObject({ items: [], total: 6, page: 99 });
    const bad = await get('/dashboard/recent-bookings?page=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, error_code: 'INVALID_PARAMS' });
    expect((await get('/dashboard/recent-bookings?per_page=101')).statusCode).toBe(400);
  });

  it('GET /dashboard/recent-transfers: upcoming transfers only, soonest first', async () => {
    const db = t.platform.db;
    const v = await insertVehicle(db, { name: 'Mercedes Vito', category: 'van' });
    const c = await insertCustomer(db, { name: 'Transfer Guest', email: 'guest@example.test' });
    // the past and the rental booking overlap the upcoming ones: on one vehicle the database would refuse them
    const other = await insertVehicle(db, { name: 'Fiat Doblo', category: 'van' });
    const inH = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
    const later = await insertBooking(db, {
      vehicleId: v,
      customerId: c,
      kind: 'transfer',
      status: 'confirmed',
      total: '70',
      createdAt: inH(-5),
      pickupAt: inH(48),
      origin: 'IST Airport',
      destination: 'Taksim',
    });
    const soon = await insertBooking(db, {
      vehicleId: v,
      customerId: c,
      kind: 'transfer',
      status: 'pending',
      total: '60',
      createdAt: inH(-5),
      pickupAt: inH(3),
      origin: 'Taksim',
      destination: 'SAW Airport',
    });
    await insertBooking(db, {
      vehicleId: other,
      customerId: c,
      kind: 'transfer',
      status: 'confirmed',
      total: '60',
      createdAt: inH(-50),
      pickupAt: inH(-2),
    }); // past
    await insertBooking(db, {
      vehicleId: v,
      customerId: c,
      kind: 'transfer',
      status: 'cancelled',
      total: '60',
      createdAt: inH(-5),
      pickupAt: inH(5),
    }); // cancelled
    await insertBooking(db, {
      vehicleId: other,
      customerId: c,
      kind: 'rental',
      status: 'confirmed',
      total: '60',
      createdAt: inH(-5),
      pickupAt: inH(30),
    }); // not a transfer
    const r = await get('/dashboard/recent-transfers');
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d.total).toBe(2);
    expect(d.items.map((i: { id: number }) => i.id)).toEqual([soon, later]);
    expect(d.items[0]).toMatchObject({
      origin_name: 'Taksim',
      destination_name: 'SAW Airport',
      status_label: 'Pending',
      vehicle_name: 'Mercedes Vito',
      total: 60,
    });
  });
});
